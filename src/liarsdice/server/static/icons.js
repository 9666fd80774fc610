// Small inline SVG icons (decorative: the text next to them says the same). No icon fonts,
// no emoji (not every system draws them).

const NS = "http://www.w3.org/2000/svg";

/**
 * An SVG icon of `paths` ([tag, attributes] each), with the class `icon cls`.
 * @param {[string, Record<string, string>][]} paths
 * @param {string} cls
 */
function icon(paths, cls) {
  const box = document.createElementNS(NS, "svg");
  box.setAttribute("viewBox", "0 0 24 24");
  box.setAttribute("class", `icon ${cls}`);
  box.setAttribute("aria-hidden", "true");
  box.setAttribute("focusable", "false");
  for (const [tag, attrs] of paths) {
    const el = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    box.append(el);
  }
  return box;
}

/** @type {[string, Record<string, string>]} */
const SPEAKER = ["path", { d: "M4 9h4l5-4v14l-5-4H4z", fill: "currentColor" }];

export const speakerOn = () =>
  icon([SPEAKER, ["path", { d: "M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12", fill: "none", stroke: "currentColor", "stroke-width": "2", "stroke-linecap": "round" }]], "speaker");

export const speakerOff = () =>
  icon([SPEAKER, ["path", { d: "M16 9l5 6M21 9l-5 6", fill: "none", stroke: "currentColor", "stroke-width": "2", "stroke-linecap": "round" }]], "speaker");

export const trophy = () =>
  icon(
    [
      ["path", { d: "M7 3h10v5a5 5 0 0 1-10 0z", fill: "currentColor" }],
      ["path", { d: "M7 5H4v2a3 3 0 0 0 3 3M17 5h3v2a3 3 0 0 1-3 3", fill: "none", stroke: "currentColor", "stroke-width": "1.8" }],
      ["path", { d: "M11 13h2v4h-2zM8 18h8v3H8z", fill: "currentColor" }],
    ],
    "trophy",
  );
