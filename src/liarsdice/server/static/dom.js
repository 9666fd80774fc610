// Tiny DOM helpers. Text always goes in through textContent / text nodes, never innerHTML,
// so nothing a player typed (names, chat) can ever become markup.

/**
 * What `h`, `append` and `fill` take as children: nodes, strings (and numbers: text),
 * arrays of them (JSDoc's typedefs can't say `Child[]` in a `Child`: an array-like here);
 * null, undefined and false are skipped.
 * @typedef {Node | string | number | null | undefined | false | {readonly [i: number]: Child, readonly length: number}} Child
 */

/**
 * `h`'s props: attributes, properties and event listeners (those it types: their events,
 * whose `currentTarget` is the element made).
 * @typedef {{currentTarget: HTMLElement}} OnElement
 * @typedef {{[key: string]: unknown, onclick?: (ev: MouseEvent & OnElement) => unknown, onchange?: (ev: Event & OnElement) => unknown, onkeydown?: (ev: KeyboardEvent & OnElement) => unknown}} Props
 */

/**
 * The element with this id (throws when the page lacks it: a bug, not a user error);
 * `kind`, the element's class (`HTMLInputElement`...), checks what it is and types it.
 * @template {HTMLElement} [T=HTMLElement]
 * @param {string} id
 * @param {new () => T} [kind]
 * @returns {T}
 */
export function $(id, kind) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`missing element #${id}`);
  if (kind && !(el instanceof kind)) throw new Error(`element #${id} is not a ${kind.name}`);
  return /** @type {T} */ (el);
}

/**
 * Create an element: h("button", {class: "big", onclick: fn, "aria-label": "x"}, "text", child).
 * Props starting with "on" are event listeners; `class`, `text`, `hidden`, `disabled`,
 * `value`, `selected` and `checked` are set as properties; everything else as attributes.
 * Children are nodes or strings (strings become text nodes); null/undefined/false are skipped.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Props | null} [props]
 * @param {Child[]} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), /** @type {EventListener} */ (value));
    } else if (key === "class") {
      el.className = String(value);
    } else if (key === "text") {
      el.textContent = String(value);
    } else if (["hidden", "disabled", "value", "selected", "checked"].includes(key)) {
      /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (el))[key] = value;
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
  append(el, children);
  return el;
}

/**
 * Append children (nodes, strings, arrays of them) to `el`.
 * @template {Element} E
 * @param {E} el
 * @param {Child[]} children
 * @returns {E}
 */
export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/**
 * Replace every child of `el` with `children`.
 * @template {Element} E
 * @param {E} el
 * @param {Child[]} children
 * @returns {E}
 */
export function fill(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

/**
 * The server HTML-escapes chat text (&amp; &lt; &gt; &quot; &#x27;). We show it with
 * textContent, so undo exactly those escapes to show what the player typed; the result is
 * never parsed as HTML.
 */
/** @type {Record<string, string>} */
const ENTITIES = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#x27;": "'", "&#39;": "'" };
/** @param {unknown} text */
export function unescapeHtml(text) {
  return String(text).replace(/&(?:amp|lt|gt|quot|#x27|#39);/g, (m) => ENTITIES[m]);
}

// Counts in words ("1 die", "2 dice") are messages of their own: ngettext() in i18n.js.

// What each element last showed (`sync`, `changed`): a signature string per element.
/** @type {WeakMap<Element, string>} */
const SIGNATURES = new WeakMap();

/**
 * Whether `sig` (a string describing what `el` shows) differs from the one it was last given;
 * `el` keeps `sig` from now on ("": forget it, so that the next one is a change).
 * @param {Element} el
 * @param {string} sig
 */
export function changed(el, sig) {
  if (SIGNATURES.get(el) === sig) return false;
  SIGNATURES.set(el, sig);
  return true;
}

/**
 * The signature `el` was last given (`changed`), or undefined.
 * @param {Element} el
 */
export function signature(el) {
  return SIGNATURES.get(el);
}

/**
 * Rebuild `el`'s children with `build()` only when `sig` (a string describing what they
 * show) changed since the last time: focus, selection and running animations survive
 * frames that change nothing visible here.
 * @param {Element} el
 * @param {string} sig
 * @param {() => Child} build
 */
export function sync(el, sig, build) {
  if (!changed(el, sig)) return false;
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

/**
 * Add `cls` to `el` for one run of its CSS animation (removed when that animation ends).
 * @param {Element} el
 * @param {string} cls
 */
export function animateOnce(el, cls) {
  el.classList.add(cls);
  /** @param {Event} ev */
  const done = (ev) => {
    if (ev.target !== el) return; // a child's animation
    el.classList.remove(cls);
    el.removeEventListener("animationend", done);
  };
  el.addEventListener("animationend", done);
}
