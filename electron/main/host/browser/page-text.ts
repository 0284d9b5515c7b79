/**
 * The page's readable text, computed inside the page: what a person reading the rendered page
 * sees (innerText leaves out hidden elements, scripts and styles, and puts blocks on their own
 * lines), with headings marked by their level ("## 공지사항") and table cells joined by " | " so
 * rows stay rows. Link texts are part of the text where they stand.
 *
 * Passed to the page as source text, not as a function: a bundler's helpers (esbuild's __name)
 * inside a function body would not exist in the page. The page is a throwaway (its browser dies
 * after the call), so marking the headings in its DOM changes nothing anyone sees.
 */
export function pageTextScript(maxChars: number): string {
  const max = Math.max(0, Math.floor(maxChars));
  return `(() => {
  const body = document.body;
  if (!body) return { text: '', total: 0 };
  for (const h of body.querySelectorAll('h1,h2,h3,h4,h5,h6')) {
    h.prepend(document.createTextNode('#'.repeat(Number(h.tagName.slice(1))) + ' '));
  }
  const lines = body.innerText.replace(/\\r/g, '').split('\\n')
    .map((line) => line.replace(/\\t+/g, ' | ').replace(/[ \\u00a0]+/g, ' ').trim());
  const kept = [];
  for (const line of lines) {
    if (line === '' && (kept.length === 0 || kept[kept.length - 1] === '')) continue;
    kept.push(line);
  }
  while (kept.length > 0 && kept[kept.length - 1] === '') kept.pop();
  const text = kept.join('\\n');
  return { text: text.slice(0, ${max}), total: text.length };
})()`;
}

/** Width and height from a PNG's IHDR chunk (bytes 16–23, big-endian). */
export function pngSize(png: Uint8Array): { width: number; height: number } {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return png.byteLength >= 24 ? { width: view.getUint32(16), height: view.getUint32(20) } : { width: 0, height: 0 };
}
