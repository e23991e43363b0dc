"use strict";
// Drawing the table from a frame: chairs round the felt, slates in chalk,
// cards. Text goes in as text (textContent), never as markup.
window.ToepRender = (() => {
  const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
  const SVG = "http://www.w3.org/2000/svg";

  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function fill(template, params) {
    return String(template).replace(/\{(\w+)\}/g, (_, name) => (name in params ? params[name] : ""));
  }

  // A card "10H": its rank and suit sign; red for hearts and diamonds.
  function card(code, words, tag = "span") {
    const rank = code.slice(0, -1);
    const suit = code.slice(-1);
    const node = el(tag, `card${suit === "H" || suit === "D" ? " red" : ""}`);
    node.append(el("span", "", words[`rank.${rank}`] || rank), el("span", "", SUITS[suit] || suit));
    node.dataset.card = code;
    node.setAttribute("aria-label", `${words[`rank.${rank}`] || rank} ${words[`suit.${suit}`] || suit}`);
    return node;
  }

  function marksText(count, words) {
    return fill(words[count === 1 ? "marks.one" : "marks.many"], { count });
  }

  // A slate: one chalk stroke a mark, every fifth struck through the four
  // before it; the number beside.
  function slate(marks, limit, words) {
    const box = el("div", `slate${marks === limit - 1 ? " edge" : ""}`);
    const groups = Math.floor(marks / 5);
    const rest = marks % 5;
    const width = groups * 22 + rest * 5 + 2;
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("viewBox", `0 0 ${Math.max(width, 4)} 16`);
    svg.setAttribute("aria-hidden", "true");
    const line = (x1, y1, x2, y2) => {
      const stroke = document.createElementNS(SVG, "line");
      for (const [key, value] of Object.entries({ x1, y1, x2, y2 })) stroke.setAttribute(key, value);
      stroke.setAttribute("stroke", "#f4f1e8");
      stroke.setAttribute("stroke-width", "1.6");
      stroke.setAttribute("stroke-linecap", "round");
      svg.append(stroke);
    };
    for (let g = 0; g < groups; g += 1) {
      const x = g * 22 + 1;
      for (let i = 0; i < 4; i += 1) line(x + i * 4 + 1, 2, x + i * 4 + 1, 14);
      line(x - 1, 12, x + 15, 4);
    }
    for (let i = 0; i < rest; i += 1) line(groups * 22 + i * 5 + 2, 2, groups * 22 + i * 5 + 2, 14);
    box.append(svg, el("span", "count", String(marks)));
    box.title = marksText(marks, words);
    return box;
  }

  // Where each chair stands: yours (or seat 0's) at the bottom, clockwise.
  function place(seat, seats, bottom) {
    const turn = ((seat - bottom + seats) % seats) / seats;
    const angle = Math.PI / 2 + turn * 2 * Math.PI;
    return { left: 50 + 40 * Math.cos(angle), top: 50 + 38 * Math.sin(angle) };
  }

  return { el, fill, card, slate, place, marksText };
})();
