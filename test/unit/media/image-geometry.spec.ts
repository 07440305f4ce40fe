import { boundedTransform, outputFrameSize } from '../../../src/media/domain/image-geometry';
import { ImageFit, ImageTransform } from '../../../src/media/domain/image-transform';

const source = { width: 640, height: 480 };
const asked = (
  width: number | undefined,
  height: number | undefined,
  fit: ImageFit = 'cover',
): ImageTransform => ({
  width,
  height,
  fit,
  format: 'png',
});

describe('boundedTransform: never larger than the source (docs/decisions/0107-image-transform-bounds.md)', () => {
  it('leaves a transform within the source as asked', () => {
    expect(boundedTransform(source, asked(100, 100, 'contain'))).toEqual(asked(100, 100, 'contain'));
    expect(boundedTransform(source, asked(100, 4000, 'inside'))).toEqual(asked(100, 4000, 'inside'));
  });

  it('scales a box fit down to the largest box of the asked shape inside the source', () => {
    expect(boundedTransform(source, asked(1000, 100, 'cover'))).toEqual(asked(640, 64, 'cover'));
    expect(boundedTransform(source, asked(4096, 4096, 'fill'))).toEqual(asked(480, 480, 'fill'));
    expect(boundedTransform(source, asked(100, 960, 'contain'))).toEqual(asked(50, 480, 'contain'));
  });

  it('makes every request that renders the source unchanged the untransformed one', () => {
    const original = asked(undefined, undefined);
    for (const transform of [
      asked(4096, undefined),
      asked(undefined, 480, 'fill'),
      asked(640, 480, 'contain'),
      asked(1280, 960, 'cover'),
      asked(4096, 100, 'outside'),
      asked(4096, 4096, 'inside'),
    ]) {
      expect(boundedTransform(source, transform)).toEqual(original);
    }
  });

  it('gives one dimension one variant whatever the fit', () => {
    expect(boundedTransform(source, asked(320, undefined, 'inside'))).toEqual(asked(320, undefined));
  });
});

describe('outputFrameSize: what the pixel cap counts', () => {
  it('is the box for box fits, the scaled source otherwise, never more than the source', () => {
    expect(outputFrameSize(source, asked(100, 50, 'fill'))).toEqual({ width: 100, height: 50 });
    expect(outputFrameSize(source, asked(320, undefined))).toEqual({ width: 320, height: 240 });
    expect(outputFrameSize(source, asked(100, 100, 'inside'))).toEqual({ width: 100, height: 75 });
    expect(outputFrameSize(source, asked(100, 100, 'outside'))).toEqual({ width: 133, height: 100 });
    expect(outputFrameSize(source, asked(undefined, undefined))).toEqual(source);
  });
});
