// JSON from outside the page (a shared link, a stored record) is checked before it is parsed:
// how deep it nests, counted without building anything. A tree deeper than the engine takes
// (neuralpath.limits.json_depth) is refused whole; parsed and written out again it cost seconds
// and ran out of stack (#35: a link that inflated to 5M nested arrays froze the tab).
//
//   nestingOver('[[1]]', 1)   -> true
//   nestingOver('{"a": "[["}', 1) -> false   (brackets inside strings do not count)

export function nestingOver(json, limit) {
  let depth = 0, inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;                 // a backslash: the next character is escaped
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) { if (++depth > limit) return true; }
    else if (c === 93 || c === 125) depth--;
  }
  return false;
}

// A short quotation of an outside value for a message: at most `max` characters of its JSON.
export function quoteShort(value, max = 40) {
  let text;
  try { text = JSON.stringify(value) ?? String(value); } catch { text = String(value); }
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
