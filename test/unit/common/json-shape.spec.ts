import { bodyShapeViolation, jsonShapeViolation } from '../../../src/common/validation/body-shape';

const LIMITS = { maxMembers: 3, maxDepth: 4 };
const bytes = (text: string) => Buffer.from(text);

describe('jsonShapeViolation (the shape bound on raw JSON bytes, before parsing)', () => {
  it.each([
    ['{}', null],
    ['[1,2,3]', null],
    ['[1,2,3,4]', { path: 'body', message: 'body has more than 3 members' }],
    ['{"a":1,"b":2,"c":3,"d":4}', { path: 'body', message: 'body has more than 3 members' }],
    ['{"list":[1,2,3,4]}', { path: 'list', message: 'list has more than 3 members' }],
    ['{"b":[0,{"c":[1,2,3,4]}]}', { path: 'b.1.c', message: 'b.1.c has more than 3 members' }],
    ['[[[[]]]]', null],
    ['[[[[[]]]]]', { path: '0.0.0.0', message: '0.0.0.0 nests deeper than 4 levels' }],
    ['{"x":{"y":{"z":{"w":{}}}}}', { path: 'x.y.z.w', message: 'x.y.z.w nests deeper than 4 levels' }],
  ])('%s gives the same answer as the check on the parsed value', (text, expected) => {
    expect(jsonShapeViolation(bytes(text), LIMITS)).toEqual(expected);
    expect(bodyShapeViolation(JSON.parse(text), LIMITS)).toEqual(expected);
  });

  it('ignores brackets, commas and colons inside strings, escaped quotes included', () => {
    const text = JSON.stringify({ a: '[[[[[,,,,]]]]]', 'b\\"[,': '{"x":1,"y":2,"z":3,"w":4}', c: 'é,ü,ß,,' });
    expect(jsonShapeViolation(bytes(text), LIMITS)).toBeNull();
  });

  it('passes bytes that are not JSON through to the parser', () => {
    expect(jsonShapeViolation(bytes('{"a":'), LIMITS)).toBeNull();
    expect(jsonShapeViolation(bytes(']]]}}'), LIMITS)).toBeNull();
    expect(jsonShapeViolation(bytes('"unterminated'), LIMITS)).toBeNull();
  });
});
