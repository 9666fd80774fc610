// Tiny DOM helpers. Text always goes in through textContent / text nodes, never innerHTML,
// so nothing a player typed (names, chat) can ever become markup.

/** The element with this id (throws when the page lacks it: a bug, not a user error). */
export function $(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`missing element #${id}`);
  return el;
}

/**
 * Create an element: h("button", {class: "big", onclick: fn, "aria-label": "x"}, "text", child).
 * Props starting with "on" are event listeners; `class`, `text`, `hidden`, `disabled`,
 * `value`, `selected` and `checked` are set as properties; everything else as attributes.
 * Children are nodes or strings (strings become text nodes); null/undefined/false are skipped.
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "class") {
      el.className = value;
    } else if (key === "text") {
      el.textContent = String(value);
    } else if (["hidden", "disabled", "value", "selected", "checked"].includes(key)) {
      el[key] = value;
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
  append(el, children);
  return el;
}

/** Append children (nodes, strings, arrays of them) to `el`. */
export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Replace every child of `el` with `children`. */
export function fill(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

/**
 * The server HTML-escapes chat text (&amp; &lt; &gt; &quot; &#x27;). We show it with
 * textContent, so undo exactly those escapes to show what the player typed; the result is
 * never parsed as HTML.
 */
const ENTITIES = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#x27;": "'", "&#39;": "'" };
export function unescapeHtml(text) {
  return String(text).replace(/&(?:amp|lt|gt|quot|#x27|#39);/g, (m) => ENTITIES[m]);
}

// Counts in words ("1 die", "2 dice") are messages of their own: ngettext() in i18n.js.

/**
 * Rebuild `el`'s children with `build()` only when `sig` (a string describing what they
 * show) changed since the last time: focus, selection and running animations survive
 * frames that change nothing visible here.
 */
export function sync(el, sig, build) {
  if (el.__sig === sig) return false;
  el.__sig = sig;
  const focused = el.contains(document.activeElement) ? document.activeElement.id : null;
  fill(el, build());
  if (focused) {
    const again = document.getElementById(focused);
    if (again && el.contains(again)) again.focus({ preventScroll: true });
  }
  return true;
}

/** Whether the person asked for less motion (checked each time: it can change). */
export function reducedMotion() {
  return Boolean(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

/** Add `cls` to `el` for one run of its CSS animation (removed when that animation ends). */
export function animateOnce(el, cls) {
  el.classList.add(cls);
  const done = (ev) => {
    if (ev.target !== el) return; // a child's animation
    el.classList.remove(cls);
    el.removeEventListener("animationend", done);
  };
  el.addEventListener("animationend", done);
}
