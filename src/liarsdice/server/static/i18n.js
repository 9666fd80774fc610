// The page's language: English (the code's own: each English sentence is its message id) or a
// language with a catalogue, static/i18n-<lang>.json, written by `python -m liarsdice.i18n.build`
// from src/liarsdice/i18n/locale/<lang>/LC_MESSAGES/browser.po (docs/I18N.md).
//
// The functions have the Python names so that babel's javascript extractor finds the messages:
//   _("Join a room")
//   _("{name} bids {bid}.", { name, bid })           placeholders filled after translating
//   ngettext("{n} die", "{n} dice", n)               a count: `n` is a placeholder of its own
//   pgettext("face", "six"), npgettext("face", "six", "sixes", n)
// Write each message as a plain "double-quoted" literal (the extractor reads literals only), a
// whole sentence per message.
//
// The plural form is NOT read by evaluating the catalogue's C expression ("(n != 1)"): the
// browser's Intl.PluralRules gives the CLDR category of n in the language, and PLURAL_FORMS maps
// each category to the catalogue's form index (English and Spanish: "one" -> 0, anything else ->
// 1; a category a language's list lacks takes its last form, "other"). A new language adds its
// list here in the order of its Plural-Forms header.
//
// The language is chosen once, before any other module runs (this module awaits its catalogue
// at the top level, and every module that speaks imports it): a choice saved on the page
// (localStorage "liarsdice:lang"), else the browser's languages (es-ES, es-419: es), else
// English. The switch in the header saves a choice and reloads the page.

const STORE = "liarsdice:lang";
/**
 * The languages the page speaks, each named in itself (the switch's options).
 * @type {[string, string][]}
 */
export const LANGUAGES = [
  ["en", "English"],
  ["es", "Español"],
];
const DEFAULT = "en";
/** @type {Record<string, string[]>} */
const PLURAL_FORMS = {
  en: ["one", "other"],
  es: ["one", "other"],
};

/**
 * A language tag ("es-AR", "en_GB") as a language the page speaks, or null.
 * @param {unknown} tag
 * @returns {string | null}
 */
export function normalize(tag) {
  const base = String(tag || "").trim().replace("_", "-").split("-")[0].toLowerCase();
  return LANGUAGES.some(([code]) => code === base) ? base : null;
}

function savedLanguage() {
  try {
    return normalize(localStorage.getItem(STORE));
  } catch {
    return null; // storage blocked: the browser's languages decide
  }
}

/** The language to speak: the saved choice, else the first of the browser's we speak. */
export function chooseLanguage() {
  const saved = savedLanguage();
  if (saved) return saved;
  const tags = [...(navigator.languages || []), navigator.language];
  for (const tag of tags) {
    const lang = normalize(tag);
    if (lang) return lang;
  }
  return DEFAULT;
}

let language = DEFAULT;
/** @type {Record<string, string | string[]>} the catalogue: message -> translation (plural: its forms) */
let messages = {};
/** @type {Intl.PluralRules} */
let pluralRules = null;

/**
 * Read the catalogue of `lang`; the language the page speaks then.
 * @param {string} lang
 * @returns {Promise<string>}
 */
async function load(lang) {
  if (lang === DEFAULT) return DEFAULT;
  try {
    const r = await fetch(`/static/i18n-${lang}.json`, { headers: { Accept: "application/json" } });
    if (!r.ok) throw new Error(`HTTP ${r.status}`);
    const data = await r.json();
    messages = data.messages || {};
    return lang;
  } catch (err) {
    console.warn(`no ${lang} catalogue; English instead`, err); // the page still works
    messages = {};
    return DEFAULT;
  }
}

language = await load(chooseLanguage());
pluralRules = new Intl.PluralRules(language);

/** The language in use ("en", "es"). */
export function currentLanguage() {
  return language;
}

/**
 * The values of a message's `{name}` placeholders.
 * @typedef {Record<string, unknown>} Values
 */

/**
 * Fill the `{name}` placeholders of `text` from `values` (a missing one stays as it is).
 * @param {string} text
 * @param {Values} [values]
 * @returns {string}
 */
export function format(text, values) {
  if (!values) return text;
  return text.replace(/\{([a-z_]+)\}/g, (m, key) => (key in values && values[key] !== undefined && values[key] !== null ? String(values[key]) : m));
}

/** @param {number} n */
function pluralIndex(n) {
  const forms = PLURAL_FORMS[language] || PLURAL_FORMS.en;
  const i = forms.indexOf(pluralRules.select(Number(n)));
  return i >= 0 ? i : forms.length - 1;
}

/** @param {string} key */
function lookup(key) {
  return Object.prototype.hasOwnProperty.call(messages, key) ? messages[key] : undefined;
}

/**
 * `message` in the language in use, its placeholders filled from `values`.
 * @param {string} message
 * @param {Values} [values]
 */
export function _(message, values) {
  const t = lookup(message);
  return format(typeof t === "string" ? t : message, values);
}

/**
 * `message` told apart from the same English by `context`.
 * @param {string} context
 * @param {string} message
 * @param {Values} [values]
 */
export function pgettext(context, message, values) {
  const t = lookup(`${context}\u0004${message}`);
  return format(typeof t === "string" ? t : message, values);
}

/**
 * @param {string} key
 * @param {string} singular
 * @param {string} pluralText
 * @param {number} n
 * @param {Values} [values]
 */
function plural(key, singular, pluralText, n, values) {
  const t = lookup(key);
  const text = Array.isArray(t) ? t[pluralIndex(n)] ?? t[t.length - 1] : Number(n) === 1 ? singular : pluralText;
  return format(text, { n, ...(values || {}) });
}

/**
 * The form of a message that agrees with the count `n` (`{n}` is filled with it).
 * @param {string} singular
 * @param {string} pluralText
 * @param {number} n
 * @param {Values} [values]
 */
export function ngettext(singular, pluralText, n, values) {
  return plural(singular, singular, pluralText, n, values);
}

/**
 * `ngettext` with a context.
 * @param {string} context
 * @param {string} singular
 * @param {string} pluralText
 * @param {number} n
 * @param {Values} [values]
 */
export function npgettext(context, singular, pluralText, n, values) {
  return plural(`${context}\u0004${singular}`, singular, pluralText, n, values);
}

/**
 * Mark a message for the catalogue without translating it (translated where used: `_(m)`).
 * @param {string} message
 */
export function N_(message) {
  return message;
}

/**
 * "a, b and c" in the language in use.
 * @param {unknown[]} items
 */
export function andList(items) {
  const list = items.filter((x) => x !== "" && x !== null && x !== undefined).map(String);
  if (list.length <= 1) return list.join("");
  return _("{first} and {last}", { first: list.slice(0, -1).join(", "), last: list[list.length - 1] });
}

/** @param {string} text */
const squash = (text) => text.replace(/\s+/g, " ").trim();

/**
 * Translate the page's own text (index.html): an element with `data-i18n` has its text as the
 * message (`data-i18n="html"`: its markup, for a sentence with <strong> or <code> inside; the
 * catalogue is ours, never a player's text); `data-i18n-attrs="placeholder aria-label"` names
 * attributes whose values are messages. The build extracts them from index.html.
 * @param {ParentNode} [root]
 */
export function translatePage(root = document) {
  if (language === DEFAULT) return;
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("[data-i18n]"))) {
    if (el.dataset.i18n === "html") {
      const t = lookup(squash(el.innerHTML));
      if (typeof t === "string") el.innerHTML = t;
    } else {
      const t = lookup(squash(el.textContent));
      if (typeof t === "string") el.textContent = t;
    }
  }
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("[data-i18n-attrs]"))) {
    for (const attr of el.dataset.i18nAttrs.split(/\s+/).filter(Boolean)) {
      const value = el.getAttribute(attr);
      const t = value === null ? undefined : lookup(squash(value));
      if (typeof t === "string") el.setAttribute(attr, t);
    }
  }
}

/** The switch in the header (a labelled <select id="language">): saves the choice, reloads. */
function wireSwitch() {
  const select = /** @type {HTMLSelectElement | null} */ (document.getElementById("language"));
  if (!select) return;
  select.value = language;
  select.addEventListener("change", () => {
    try {
      localStorage.setItem(STORE, select.value);
    } catch {
      // storage blocked: the choice lasts this page only
    }
    location.reload();
  });
}

if (typeof document !== "undefined") {
  document.documentElement.lang = language;
  translatePage();
  wireSwitch();
}

/**
 * A translated sentence with elements in it: `parts(_("by {name}"), { name: strongEl })` ->
 * ["by ", strongEl] (the placeholders named in `nodes` become those nodes, wherever the
 * translation puts them).
 * @param {string} text
 * @param {Record<string, Node | string>} nodes
 */
export function parts(text, nodes) {
  /** @type {(string | Node)[]} */
  const out = [];
  let last = 0;
  for (const m of text.matchAll(/\{([a-z_]+)\}/g)) {
    if (!(m[1] in nodes)) continue;
    if (m.index > last) out.push(text.slice(last, m.index));
    out.push(nodes[m[1]]);
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}
