import { ApiError } from '../../../src/common/errors/api-error';
import { checkResponses } from '../../../src/legacy-spaces/domain/application-responses';
import {
  defaultDomainOf,
  effectiveJoinMode,
  isAdminRole,
  isClaimableDomainForm,
  isProtocolDid,
} from '../../../src/spaces/domain/space-rules';

describe('space rules', () => {
  it('accepts 3-63 lowercase letters, digits and inner hyphens as domains', () => {
    for (const ok of ['abc', 'a-b', 'a1b2', 'x'.repeat(63), '123', 'space-abc', 'a--b']) {
      expect(isClaimableDomainForm(ok)).toBe(true);
    }
    for (const bad of ['ab', 'x'.repeat(64), 'Abc', 'a_b', '-ab', 'ab-', 'a.b', 'a b', '', 'äbc']) {
      expect(isClaimableDomainForm(bad)).toBe(false);
    }
  });

  it('reserves the normalized default form space-<32 hex>', () => {
    const uuid = '0190f1a2-b3c4-7d5e-8f70-8192a3b4c5d6';
    expect(defaultDomainOf(uuid)).toBe('space-0190f1a2b3c47d5e8f708192a3b4c5d6');
    expect(defaultDomainOf(uuid)).toHaveLength(38);
    expect(isClaimableDomainForm(defaultDomainOf(uuid))).toBe(false);
    expect(isClaimableDomainForm(`${defaultDomainOf(uuid)}x`)).toBe(true);
  });

  it('resolves the invite join mode: instant, application, inherit following the space', () => {
    expect(effectiveJoinMode('instant', 'application')).toBe('instant');
    expect(effectiveJoinMode('application', 'open')).toBe('application');
    expect(effectiveJoinMode('application', 'closed')).toBe('application');
    expect(effectiveJoinMode('inherit', 'application')).toBe('application');
    expect(effectiveJoinMode('inherit', 'open')).toBe('instant');
    expect(effectiveJoinMode('inherit', 'closed')).toBe('instant');
  });

  it('knows admins and DIDs', () => {
    expect(isAdminRole('owner')).toBe(true);
    expect(isAdminRole('admin')).toBe(true);
    expect(isAdminRole('member')).toBe(false);
    expect(isAdminRole(null)).toBe(false);
    expect(isProtocolDid('did:plat:2346789acdefhknrtvz2346789acdef')).toBe(true);
    expect(isProtocolDid('did:plat:2346789acdefhknrtvz2346789acde')).toBe(false);
    expect(isProtocolDid('did:plat:0000000000000000000000000000000')).toBe(false);
    expect(isProtocolDid(42)).toBe(false);
  });
});

describe('application responses', () => {
  const questions = [
    { question: 'Why?', isRequired: true },
    { question: 'Where?', isRequired: false },
    { question: 'When?', isRequired: false },
  ];

  const details = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).getStatus()).toBe(400);
      return (error as ApiError).body.details;
    }
    throw new Error('expected a 400');
  };

  it('stores the answers in question order and drops nothing answered', () => {
    expect(
      checkResponses(questions, [
        { question: 'When?', response: 'Now' },
        { question: 'Why?', response: 'Because' },
      ]),
    ).toEqual([
      { question: 'Why?', response: 'Because' },
      { question: 'When?', response: 'Now' },
    ]);
  });

  it('needs every required question answered with text', () => {
    expect(details(() => checkResponses(questions, []))).toEqual([
      { path: 'responses', message: 'a response to "Why?" is required' },
    ]);
    expect(details(() => checkResponses(questions, [{ question: 'Why?', response: '' }]))).toHaveLength(1);
  });

  it('refuses unknown and repeated questions, naming each', () => {
    expect(
      details(() =>
        checkResponses(questions, [
          { question: 'Why?', response: 'a' },
          { question: 'Who?', response: 'b' },
          { question: 'Why?', response: 'c' },
        ]),
      ),
    ).toEqual([
      { path: 'responses.1.question', message: 'question is not one of the space’s application questions' },
      { path: 'responses.2.question', message: 'question is answered twice' },
    ]);
  });

  it('accepts nothing when there are no questions', () => {
    expect(checkResponses([], [])).toEqual([]);
    expect(details(() => checkResponses([], [{ question: 'Why?', response: 'x' }]))).toHaveLength(1);
  });
});
