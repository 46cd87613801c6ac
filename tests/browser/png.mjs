// PNG pixels in Node (pngjs), for tests that look at screenshots and exported images: decoding
// here instead of in a page keeps the tests independent of a second browser page.
import pngjs from 'pngjs';

const { PNG } = pngjs;

// { width, height, data } with data as RGBA bytes, row by row.
export function decodePng(buffer) {
  const { width, height, data } = PNG.sync.read(buffer);
  return { width, height, data };
}

export function encodePng({ width, height, data }) {
  const png = new PNG({ width, height });
  data.copy ? data.copy(png.data) : png.data.set(data);
  return PNG.sync.write(png);
}

// Luma variance over every pixel: near 0 for a blank (single-colour) image.
export function lumaVariance({ data }) {
  let sum = 0, sumSquares = 0, n = 0;
  for (let i = 0; i < data.length; i += 4) {
    const luma = 0.299 * data[i] + 0.587 * data[i + 1] + 0.114 * data[i + 2];
    sum += luma; sumSquares += luma * luma; n++;
  }
  const mean = sum / n;
  return sumSquares / n - mean * mean;
}

// The pixels of columns [x0, x0 + width) of IMAGE, as a new image.
export function cropColumns(image, x0, width) {
  const data = Buffer.alloc(width * image.height * 4);
  for (let y = 0; y < image.height; y++)
    image.data.copy(data, y * width * 4, (y * image.width + x0) * 4, (y * image.width + x0 + width) * 4);
  return { width, height: image.height, data };
}

// Pixels that differ from the image's most common colour (its background) by more than
// `tolerance` (sum of the three channel differences).
export function inkAgainstBackground({ data }, tolerance = 12) {
  const counts = new Map();
  for (let i = 0; i < data.length; i += 4) {
    const c = (data[i] << 16) | (data[i + 1] << 8) | data[i + 2];
    counts.set(c, (counts.get(c) || 0) + 1);
  }
  const bg = [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
  let ink = 0;
  for (let i = 0; i < data.length; i += 4) {
    const d = Math.abs(data[i] - (bg >> 16)) + Math.abs(data[i + 1] - ((bg >> 8) & 255)) + Math.abs(data[i + 2] - (bg & 255));
    if (d > tolerance) ink++;
  }
  return ink;
}

// Compares two images channel by channel: a pixel differs when a colour channel moves by more
// than `threshold` (of 255). Returns the count and a diff image (differences in red over the
// faded expected image), or `size` when the sizes differ.
export function comparePixels(got, want, threshold) {
  if (got.width !== want.width || got.height !== want.height)
    return { size: `${got.width}x${got.height}, golden ${want.width}x${want.height}` };
  const diff = { width: want.width, height: want.height, data: Buffer.from(want.data) };
  let differing = 0;
  for (let i = 0; i < got.data.length; i += 4) {
    let worst = 0;
    for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(got.data[i + c] - want.data[i + c]));
    if (worst > threshold) {
      differing++;
      diff.data[i] = 255; diff.data[i + 1] = 0; diff.data[i + 2] = 0; diff.data[i + 3] = 255;
    } else {
      diff.data[i + 3] = 60;  // the golden, faded, for orientation
    }
  }
  return { differing, total: got.data.length / 4, diff };
}
