/* Kifu viewer: draws the ruleset's neutral layout (seat panels of counters, zones, grids and
   notes, a shared board) at any seq of a match. It names no game's fields: events come with
   the role of each field, cards are looked up in the ruleset's catalogue by name, clause texts
   in its rules reference. Two sources: a served match (JSON routes with a token in a header,
   live through the SSE stream) or bundles inlined in the page (`kifu export --html`), one per
   view, each gzipped and base64'd, inflated by the browser's DecompressionStream when shown. */
"use strict";
(function () {
  const $ = (sel) => document.querySelector(sel);
  const KEY_PREFIX = "kifu-token:";
  const FRAMES_KEPT = 400;

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children) if (c !== null && c !== undefined && c !== false) node.append(c);
    return node;
  }
  function fill(node, ...children) {   // replaceChildren, skipping the parts a condition left out
    node.replaceChildren(...children.filter((c) => c !== null && c !== undefined && c !== false && c !== ""));
  }

  // -- sources ---------------------------------------------------------------------------------
  async function inflate(b64) {
    if (typeof DecompressionStream === "undefined")
      throw new Error("this browser cannot unpack the page: it needs DecompressionStream (Chrome 80, Firefox 113, Safari 16.4 or later)");
    const bin = atob(b64);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return JSON.parse(await new Response(stream).text());
  }

  function inlineSource(bundle, may, shared) {
    const parts = bundle.parts, recent = new Map();
    const resolve = (ids) => ids.map((i) => (typeof i === "number" ? parts[i] : i));
    return {
      kind: "inline", meta: Object.assign({}, shared, bundle.meta), events: bundle.events, may: may.length > 1 ? may : [], live: false,
      frame(seq) {
        const f = bundle.frames[Math.max(0, Math.min(seq, bundle.frames.length - 1))];
        let made = recent.get(f.seq);     // the same object for the same seq: its change marks are computed once
        if (!made) {
          const layout = Object.assign({}, f.layout, { board: resolve(f.layout.board || []),
            seats: (f.layout.seats || []).map((p) => Object.assign({}, p, { parts: resolve(p.parts || []) })) });
          made = { seq: f.seq, layout, why: f.why, declared: f.declared };
          if (recent.size >= 8) recent.delete(recent.keys().next().value);
          recent.set(f.seq, made);
        }
        return Promise.resolve(made);
      },
    };
  }

  function servedSource(base, token, as) {
    const headers = { Authorization: "Bearer " + token };
    const q = as ? "&as=" + encodeURIComponent(as) : "";
    const cache = new Map();
    async function get(path) {
      const r = await fetch(base + path, { headers, cache: "no-store" });
      const body = await r.json().catch(() => ({}));
      if (!r.ok) throw new Error(body.message || r.status + " " + r.statusText);
      return body;
    }
    const src = {
      kind: "served", live: false, meta: null, events: [], may: [], stop: new AbortController(),
      async open() {
        const d = await get("/data?after=0" + q);
        src.meta = d.meta; src.events = d.events; src.may = d.may; src.live = !d.meta.outcome;
        return src;
      },
      async more() {
        const d = await get("/data?after=" + src.events.length + q);
        src.events.push(...d.events);
        src.meta.last_seq = src.events.length;
        src.meta.outcome = d.outcome;
        if (d.verified) src.verified = d.verified;
        return d.events.length;
      },
      frame(seq) {
        let p = cache.get(seq);
        if (!p) {
          p = get("/frame?seq=" + seq + q);
          p.catch(() => cache.delete(seq));
          if (cache.size >= FRAMES_KEPT) cache.delete(cache.keys().next().value);
          cache.set(seq, p);
        }
        return p;
      },
      forget(seq) { cache.delete(seq); },
      async stream(onChange, onEnd) {
        // EventSource cannot send a header, and a token never goes into a URL: read the SSE by hand.
        const streamUrl = base.replace(/\/viewer$/, "/stream") + "?after=" + src.events.length;
        const r = await fetch(streamUrl, { headers, signal: src.stop.signal });
        if (!r.ok || !r.body) return;
        const reader = r.body.getReader();
        const dec = new TextDecoder();
        let buf = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buf += dec.decode(value, { stream: true }).replace(/\r\n?/g, "\n");
          let cut;
          while ((cut = buf.indexOf("\n\n")) >= 0) {
            const block = buf.slice(0, cut); buf = buf.slice(cut + 2);
            const ev = (block.match(/^event: ?(.*)$/m) || [])[1];
            if (ev === "status") onChange();
            if (ev === "end") { onEnd(); return; }
          }
        }
      },
    };
    return src;
  }

  // -- state -----------------------------------------------------------------------------------
  const ui = { src: null, seq: 0, from: 0, shown: -1, want: 0, timer: null, whyOpen: false, follow: true, as: "", t0: performance.now(),
               en: false, open: new Set(), clocks: null, query: "" };
  try { ui.en = localStorage.getItem("kifu-en") === "1"; } catch (err) { /* storage off: the toggle still works */ }
  const catalogue = new Map();
  let columns = [];

  function lastSeq() { return ui.src.events.length; }
  function eventAt(seq) { return seq >= 1 ? ui.src.events[seq - 1] : null; }
  function turnAt(seq) { const e = eventAt(seq); return e ? e.turn : 0; }

  function describe(e) {
    return e.type + " " + e.fields.map(([k, v]) => k + "=" + v).join(" ");
  }
  // A card an event or a ruling names ("name#id"): focusable, so its text and gloss show on focus too.
  function cardRef(name, id) {
    return el("span", { class: "card-ref", tabindex: "0", "data-card": name, "data-id": id || "", text: name + (id ? "#" + id : "") });
  }
  function cardRefs(text) {
    const s = String(text), many = s.startsWith("[") && s.endsWith("]");
    const out = [];
    (many ? s.slice(1, -1).split(", ") : [s]).forEach((item, i) => {
      if (i) out.push(", ");
      const m = item.match(/^(.+)#(\d+)$/);
      out.push(m && catalogue.has(m[1]) ? cardRef(m[1], m[2]) : item);
    });
    return many ? ["[", ...out, "]"] : out;
  }
  function describeNode(e) {   // describe(), with the cards it names as card references
    const node = el("p", { class: "ev" }, e.type);
    for (const [k, v, role] of e.fields) node.append(" " + k + "=", ...(role === "card" ? cardRefs(v) : [String(v)]));
    return node;
  }

  // -- drawing a layout ------------------------------------------------------------------------
  // A card: its name (Japanese, as the card is; the English under it with the EN toggle), stats and
  // marks; its owner's colour (the seat of the panel it is in unless it says otherwise) and, where
  // that differs from the panel's seat, the owner in words too.
  function face(f, named, seat) {
    if (!f.name) return el("span", { class: "card down", role: "img", "aria-label": "face-down card", text: "▒" });
    const owner = f.owner || seat || 0;
    const row = ui.en ? catalogue.get(f.name) : null;
    const node = el("span", { class: "card" + (f.tone ? " t-" + f.tone : "") + (named.has(f.id) ? " named" : "") + (owner ? " own" + owner : ""),
                              tabindex: "0", "data-card": f.name, "data-id": f.id || "", "data-owner": owner || null },
      el("span", { class: "name", lang: "ja", text: f.name }),
      row && row.name_en ? el("span", { class: "en", lang: "en", text: row.name_en }) : null,
      f.stats ? el("span", { class: "stats", text: f.stats }) : null,
      (f.marks && f.marks.length) || (f.owner && f.owner !== seat) ? el("span", { class: "marks" },
        (f.marks || []).join(", "), f.owner && f.owner !== seat ? el("span", { class: "owner", title: "owner: seat " + f.owner,
          text: (f.marks && f.marks.length ? " · " : "") + "seat " + f.owner }) : null) : null);
    return node;
  }

  const INLINE_CARDS = 10;    // a longer zone (a deck list) shows its count, its cards on demand
  function part(p, named, seat) {
    switch (p.type) {
      case "counter":
        return el("span", { class: "counter", "data-counter": (seat || 0) + ":" + p.id }, el("span", { class: "label", text: p.label + " " }),
                  el("b", { text: String(p.value) + (p.max !== undefined && p.max !== null ? "/" + p.max : "") }));
      case "note":
        return el("p", { class: "note" + (p.tone ? " t-" + p.tone : ""), text: p.text });
      case "zone": {
        const cards = p.cards || [];
        const n = p.count || cards.length;
        const key = (seat || 0) + ":" + p.id, open = ui.open.has(key);
        const box = el("div", { class: "zone", "data-zone": p.id },
                       el("span", { class: "zlabel", text: p.label + " (" + n + ")" }));
        // the whole zone on demand: a graveyard shown by its top card, a deck by its count (the
        // judge's layout has the order), a long list
        const folded = cards.length > 0 && (p.show === "top" ? cards.length > 1 : p.show === "count" || cards.length > INLINE_CARDS);
        if (folded || open) {
          box.append(el("button", { type: "button", class: "more", "aria-expanded": String(open), "data-zone-key": key,
            title: open ? "fold " + p.label : "every card of " + p.label + ", in order",
            onclick: () => { if (ui.open.has(key)) ui.open.delete(key); else ui.open.add(key); redraw(); },
            text: open ? "fold" : "all " + cards.length }));
        }
        const row = el("div", { class: "cards" });
        if (!n) row.append(el("span", { class: "zlabel", text: "—" }));
        else if (open) for (const c of cards) row.append(face(c, named, seat));
        else if (p.show === "count" || !cards.length) row.append(el("span", { class: "count", text: n + " face down" }));
        else if (p.show === "top") row.append(face(cards[cards.length - 1], named, seat));
        else if (cards.length > INLINE_CARDS) row.append(el("span", { class: "count", text: n + " cards" }));
        else for (const c of cards) row.append(face(c, named, seat));
        box.append(row);
        return box;
      }
      case "grid": return grid(p, named, seat);
    }
    return el("span", { text: "" });
  }

  function grid(g, named, seat) {
    const hasRow = (g.row_labels || []).length > 0, hasCol = (g.col_labels || []).length > 0;
    const node = el("div", { class: "grid", role: "group", "aria-label": g.label, "data-grid": g.id });
    node.style.gridTemplateColumns = (hasRow ? "auto " : "") + "repeat(" + g.cols + ", minmax(64px, 1fr))";
    const dr = hasCol ? 1 : 0, dc = hasRow ? 1 : 0;
    if (hasCol) g.col_labels.forEach((l, i) => { const a = el("span", { class: "axis", text: l }); a.style.gridRow = 1; a.style.gridColumn = i + 1 + dc; node.append(a); });
    if (hasRow) g.row_labels.forEach((l, i) => { const a = el("span", { class: "axis", text: l }); a.style.gridRow = i + 1 + dr; a.style.gridColumn = 1; node.append(a); });
    const cells = new Map((g.cells || []).map((c) => [c.row + ":" + c.col, c]));
    for (let r = 1; r <= g.rows; r++) for (let c = 1; c <= g.cols; c++) {
      const cell = cells.get(r + ":" + c);
      const box = el("div", { class: "cell" + (cell && cell.owner ? " o" + cell.owner : "") });
      box.style.gridRow = r + dr; box.style.gridColumn = c + dc;
      if (cell) {
        if (cell.label) box.append(el("span", { class: cell.label.length <= 3 ? "clabel mark" : "clabel", text: cell.label }));
        for (const f of cell.cards || []) box.append(face(f, named, seat));   // a cell's owner is its territory, not the cards' owner
      }
      node.append(box);
    }
    return el("div", { class: "field" }, el("div", { class: "zlabel", text: g.label }), node);
  }

  function parts(list, named, seat) {
    const out = [];
    const counters = list.filter((p) => p.type === "counter");
    if (counters.length) out.push(el("div", { class: "counters" }, ...counters.map((p) => part(p, named, seat))));
    for (const p of list) if (p.type !== "counter") out.push(part(p, named, seat));
    return out;
  }
  // A seat's panel body: its grids (the field) first, its zones and notes beside them
  function panelBody(list, named, seat) {
    const grids = list.filter((p) => p.type === "grid"), rest = list.filter((p) => p.type !== "grid" && p.type !== "counter");
    return el("div", { class: "pbody" },
      grids.length ? el("div", { class: "fields" }, ...grids.map((p) => part(p, named, seat))) : null,
      rest.length ? el("div", { class: "zones" }, ...rest.map((p) => part(p, named, seat))) : null);
  }

  function acting(L, ev) {   // the seat the position waits on (or whose turn it is, or who just acted)
    return (L.awaiting || [])[0] || L.active || (ev && ev.seat) || L.viewer || 1;
  }
  function drawBoard(frame) {
    const L = frame.layout, meta = ui.src.meta;
    const ev = eventAt(frame.seq);
    const named = new Set(ev && ev.cards ? ev.cards : []);
    const status = $("#status");
    fill(status,
      el("span", { text: "turn " + (L.turn || 0) + (L.step ? " · " + L.step : "") }),
      L.active ? el("span", { text: "seat " + L.active + "'s turn" }) : null,
      (L.awaiting || []).length ? el("span", { class: "awaiting", text: "awaiting " + L.awaiting.map((s) => "seat " + s).join(" and ") }) : null,
      L.outcome ? el("span", { class: "over", text: "over: " + L.outcome }) : null,
      el("span", { text: (L.viewer ? "seat " + L.viewer + "'s view" : "judge view") }));
    drawClock(frame.seq);
    const bottom = L.viewer || 1, act = acting(L, ev);
    const order = (L.seats || []).slice().sort((a, b) => (a.seat === bottom) - (b.seat === bottom));
    const out = [];
    order.forEach((panel, i) => {
      if (i === order.length - 1 && (L.board || []).length) out.push(el("section", { class: "panel shared", "aria-label": "shared board" }, ...parts(L.board, named, 0)));
      const player = meta.players[panel.seat - 1] || "";
      const list = panel.parts || [];
      const counters = list.filter((p) => p.type === "counter");
      const h = el("h2", {}, el("span", { class: "who" + (panel.seat === L.active ? " turn" : ""), text: "Seat " + panel.seat + " " + player }),
        (L.awaiting || []).includes(panel.seat) ? el("span", { class: "tag awaited", text: "to decide" }) : null,
        (L.chosen || []).includes(panel.seat) ? el("span", { class: "tag chosen", text: "chosen" }) :
          (L.choosing || []).includes(panel.seat) ? el("span", { class: "tag choosing", text: "choosing" }) : null,
        panel.lost ? el("span", { class: "lost", text: "lost: " + panel.lost }) : null,
        counters.length ? el("span", { class: "counters" }, ...counters.map((p) => part(p, named, panel.seat))) : null);
      out.push(el("section", { class: "panel seat" + panel.seat + (panel.seat === L.viewer ? " mine" : "") + (panel.seat === act ? " acting" : ""),
                               "data-seat": panel.seat, "aria-label": "seat " + panel.seat }, h, panelBody(list, named, panel.seat)));
    });
    if (!(L.seats || []).length) out.push(el("section", { class: "panel shared" }, ...parts(L.board || [], named, 0)));
    fill($("#board"), ...out);
  }

  // What changed since the previous event: counters that moved (with how much) and cards whose
  // face changed or that arrived where they are; an arrow from the event's first card to its target.
  const seen = new WeakMap();   // frame -> its counters and faces, for the change marks (each frame read once)
  function contents(frame) {
    let got = seen.get(frame);
    if (got) return got;
    const counters = new Map(), faces = new Map();
    const walk = (list, seat) => {
      for (const p of list || []) {
        if (p.type === "counter") counters.set(seat + ":" + p.id, p.value);
        else if (p.type === "zone") for (const c of p.cards || []) { if (c.id) faces.set(c.id, JSON.stringify(c) + "@" + seat + ":" + p.id); }
        else if (p.type === "grid") for (const cell of p.cells || []) for (const c of cell.cards || []) { if (c.id) faces.set(c.id, JSON.stringify(c) + "@" + seat + ":" + p.id + ":" + cell.row + ":" + cell.col); }
      }
    };
    walk(frame.layout.board, 0);
    for (const panel of frame.layout.seats || []) walk(panel.parts, panel.seat);
    got = { counters, faces };
    seen.set(frame, got);
    return got;
  }
  function markChanges(frame, before) {
    if (!before || before.seq !== frame.seq - 1) return;
    const was = contents(before), now = contents(frame);
    document.querySelectorAll("#board [data-counter]").forEach((node) => {
      const old = was.counters.get(node.dataset.counter);
      const value = node.querySelector("b").textContent.split("/")[0];
      if (old === undefined || String(old) === value) return;
      node.classList.add("moved");
      const d = Number(value) - Number(old);
      node.append(el("span", { class: "delta", text: Number.isFinite(d) ? (d > 0 ? "+" + d : String(d)) : "was " + old }));
      node.title = "was " + old + " before #" + frame.seq;
    });
    document.querySelectorAll("#board .card[data-id]").forEach((node) => {
      const id = Number(node.dataset.id);
      if (id && now.faces.has(id) && was.faces.get(id) !== now.faces.get(id)) node.classList.add("changed");
    });
  }
  function drawArrow(ev) {
    const svg = $("#arrow");
    const a = ev && ev.arrow ? ev.arrow : null;
    const find = (id) => document.querySelector('#board .card[data-id="' + id + '"]');
    const from = a ? find(a[0]) : null;
    const to = a ? find(a[1]) || (a.length > 2 ? find(a[2]) : null) : null;
    if (!from || !to || from === to) { svg.setAttribute("hidden", ""); return; }   // an SVG element has no .hidden
    const col = $("#board-col"), base = col.getBoundingClientRect();
    const phone = getComputedStyle(col).display === "contents";
    const ox = phone ? -window.scrollX : base.left - col.scrollLeft, oy = phone ? -window.scrollY : base.top - col.scrollTop;
    const r1 = from.getBoundingClientRect(), r2 = to.getBoundingClientRect();
    const x1 = r1.left + r1.width / 2 - ox, y1 = r1.top + r1.height / 2 - oy;
    let x2 = r2.left + r2.width / 2 - ox, y2 = r2.top + r2.height / 2 - oy;
    const len = Math.hypot(x2 - x1, y2 - y1) || 1, back = Math.min(len / 3, Math.min(r2.width, r2.height) / 2);
    x2 -= (x2 - x1) / len * back; y2 -= (y2 - y1) / len * back;   // the head stops at the target's edge
    const line = svg.querySelector("line");
    line.setAttribute("x1", x1); line.setAttribute("y1", y1); line.setAttribute("x2", x2); line.setAttribute("y2", y2);
    svg.style.position = phone ? "absolute" : "";
    svg.setAttribute("width", phone ? document.documentElement.scrollWidth : col.scrollWidth);
    svg.setAttribute("height", phone ? document.documentElement.scrollHeight : col.scrollHeight);
    svg.dataset.from = a[0]; svg.dataset.to = to.dataset.id;
    svg.removeAttribute("hidden");
  }

  // -- decision times ----------------------------------------------------------------------------
  function fmtTime(sec) {
    if (sec < 60) return (sec < 10 ? sec.toFixed(1) : Math.round(sec)) + " s";
    const m = Math.floor(sec / 60), s2 = Math.round(sec % 60);
    return m < 60 ? m + "m" + String(s2).padStart(2, "0") + "s" : Math.floor(m / 60) + "h" + String(m % 60).padStart(2, "0") + "m";
  }
  // Each seat's decisions up to a seq (timed ones: the record's `received` stamps), as prefix sums
  function clocks() {
    if (ui.clocks && ui.clocks.n === ui.src.events.length) return ui.clocks;
    const c = { n: ui.src.events.length, any: false, upto: [] };
    const run = { 1: { decisions: 0, timed: 0, total: 0, longest: 0 }, 2: { decisions: 0, timed: 0, total: 0, longest: 0 } };
    c.upto.push({ 1: Object.assign({}, run[1]), 2: Object.assign({}, run[2]) });
    for (const e of ui.src.events) {
      if (e.kind === "decision" && run[e.seat]) {     // a seat's tally is replaced, never changed: the prefixes share them
        const r = Object.assign({}, run[e.seat]);
        r.decisions++;
        if (typeof e.took === "number") { c.any = true; r.timed++; r.total += e.took; r.longest = Math.max(r.longest, e.took); }
        run[e.seat] = r;
      }
      c.upto.push({ 1: run[1], 2: run[2] });
    }
    ui.clocks = c;
    return c;
  }
  function drawClock(seq) {
    const c = clocks(), at = c.upto[Math.min(seq, c.upto.length - 1)] || {};
    const box = $("#clock");
    const seats = [1, 2].map((s) => {
      const r = at[s] || { decisions: 0, timed: 0, total: 0, longest: 0 };
      const who = "seat " + s + " " + (ui.src.meta.players[s - 1] || "");
      const text = !c.any ? who + ": " + r.decisions + " decisions"
        : who + ": " + fmtTime(r.total) + " over " + r.timed + " decisions" + (r.timed ? " (mean " + fmtTime(r.total / r.timed) + ", longest " + fmtTime(r.longest) + ")" : "");
      return el("span", { class: "s" + s, "data-seat": s, text });
    });
    fill(box, el("span", { text: c.any ? "decision times to #" + seq + ":" : "no decision times recorded ·" }), ...seats);
  }

  function clauseBlock(id) {
    const c = ui.src.meta.clauses[id];
    if (!id) return [];
    return [el("div", { class: "clause-line" }, el("span", { class: "clause", text: id }), c ? " " + c.title : " (not in the rules reference)"),
            c && c.text ? el("p", { class: "clause-text", text: c.text }) : null,
            c && c.original ? el("p", { class: "clause-text original", lang: "ja", text: c.original }) : null];
  }

  function drawCurrent(frame) {
    const ev = eventAt(frame.seq);
    const box = $("#current");
    if (!ev) { fill(box, el("p", { text: "Before the first event. → steps forward." })); return; }
    fill(box, 
      el("div", {}, el("b", { text: "#" + ev.seq + " " }), el("span", { class: "k-" + ev.kind, text: ev.kind }),
         ev.seat ? " · seat " + ev.seat : "", " · turn " + ev.turn,
         typeof ev.took === "number" ? el("span", { class: "took", text: " · took " + fmtTime(ev.took) }) : null,
         ev.cause ? el("button", { type: "button", class: "cause", onclick: () => go(ev.cause), title: "go to the cause", text: "← #" + ev.cause }) : null,
         el("button", { type: "button", id: "why-toggle", "aria-pressed": String(ui.whyOpen), "aria-controls": "why", onclick: toggleWhy, text: "why? (w)" })),
      describeNode(ev),
      ...clauseBlock(ev.clause));
  }

  // Notes on this event and the forks (variations) that leave it: meta.notes / meta.variations,
  // each view's own (a seat's page holds its own notes and the judge's public ones only).
  function drawNotes(seq) {
    const box = $("#notes"), m = ui.src.meta || {};
    const notes = (m.notes || []).filter((n) => n.seq === seq), forks = (m.variations || []).filter((v) => v.at === seq);
    box.hidden = !notes.length && !forks.length;
    fill(box, ...notes.map((n) => el("p", { class: "note", text: "✎ " + n.line })),
         ...forks.map((v) => el("p", { class: "variation", text: "⑂ variation: match " + v.match_id })));
  }

  function drawWhy(frame) {
    const box = $("#why");
    box.hidden = !ui.whyOpen;
    if (!ui.whyOpen) return;
    const links = frame.why || [];
    if (!links.length) { fill(box, el("h2", { text: "Why" }), el("p", { text: "No event selected." })); return; }
    const root = eventAt(links[links.length - 1].seq);
    const parts = [el("h2", { text: "Why #" + frame.seq }), whyList(links),
      el("p", { text: root.kind === "decision" ? "⇐ decided by seat " + root.seat + " at #" + root.seq : "⇐ from " + root.kind + " #" + root.seq })];
    const declared = frame.declared || {};
    const head = (declared.links || [])[0];
    if (head && head.seq !== root.seq) {   // the declaration the ruling resolves lies before that decision
      parts.push(el("p", { class: "declared", text: "⇐ resolves #" + head.seq + ", declared by seat " + declared.by + ":" }),
        whyList(declared.links));
    } else if (head) {
      parts.push(el("p", { class: "declared", text: "⇐ resolves #" + head.seq + ", declared by seat " + declared.by + ": the decision above" }));
    }
    fill(box, ...parts);
  }

  function whyList(links) {
    const ol = el("ol", {});
    for (const link of links) {
      const ev = eventAt(link.seq);
      const c = ui.src.meta.clauses[ev.clause || ""];
      const ins = Object.entries(link.inputs || {}).map(([k, v]) => k + " " + v).join(", ");
      const outs = Object.entries(link.results || {}).map(([k, v]) => k + " " + v).join(", ");
      const formula = ins && outs ? ins + " → " + outs : ins || (outs ? "→ " + outs : "");
      ol.append(el("li", { "data-seq": link.seq },
        el("button", { type: "button", onclick: () => go(link.seq), text: "#" + link.seq }), " ",
        el("span", { class: "k-" + ev.kind, text: ev.kind }), " ",
        ev.clause ? el("span", { class: "clause", text: ev.clause }) : null, c ? " " + c.title : "",
        el("div", { class: "ev", text: describe(ev) }),
        formula ? el("div", { class: "formula", text: "ruling: " + formula }) : null,
        ...(link.cards || []).map((k) => el("div", { class: "at" }, "after #" + link.at + ": ", cardRef(k.name, k.card), " at " + k.where +
          Object.entries(k.values || {}).map(([n, v]) => " · " + (Array.isArray(v) ? v.join(", ") : v)).join(""))),
        ...Object.entries(link.seats || {}).map(([s, vals]) => el("div", { class: "at", text: "after #" + link.at + ": seat " + s + " " +
          Object.entries(vals).map(([n, v]) => n + " " + v).join(", ") })),
        c && c.text ? el("details", {}, el("summary", { text: "clause text" }), el("p", { class: "clause-text", text: c.text })) : null));
    }
    return ol;
  }

  // -- timeline --------------------------------------------------------------------------------
  let lastTurnRow = null;
  function timelineRow(e) {
    const li = el("li", { class: e.kind, "data-seq": e.seq, id: "ev-" + e.seq, tabindex: "-1" },
      el("span", { class: "k-" + e.kind, text: "#" + e.seq + " " }), (e.clause ? e.clause + " " : "") + describe(e));
    return li;
  }
  // What the log search reads of an event: its type, clause, fields (cards by name, nested values
  // included) and the English names of its cards
  function searchText(e) {
    const en = [];
    for (const [, v] of e.fields) for (const m of String(v).matchAll(/([^\[\],#=()]+)#\d+/g)) {   // nested values name cards too
      const row = catalogue.get(m[1].trim()); if (row && row.name_en) en.push(row.name_en);
    }
    return ("#" + e.seq + " " + e.kind + " " + (e.clause || "") + " " + describe(e) + " " + en.join(" ")).toLowerCase();
  }
  function search(q) {
    ui.query = q.trim().toLowerCase();
    const words = ui.query.split(/\s+/).filter(Boolean);
    let n = 0;
    for (const li of document.querySelectorAll("#timeline li")) {
      if (!li.dataset.seq) { li.classList.toggle("miss", words.length > 0); continue; }
      const e = ui.src.events[Number(li.dataset.seq) - 1];
      if (!e._text) e._text = searchText(e);
      const hit = words.every((w) => e._text.includes(w));
      li.classList.toggle("miss", !hit);
      if (hit && words.length) n++;
    }
    $("#found").textContent = words.length ? n + " found" : "";
    markTimeline(ui.seq);
  }
  function nextFound(back) {
    const evs = ui.src.events, n = evs.length;
    if (!ui.query) return;
    const words = ui.query.split(/\s+/).filter(Boolean);
    for (let k = 1; k <= n; k++) {
      const i = ((ui.seq - 1 + (back ? -k : k)) % n + n) % n;
      const e = evs[i];
      if (!e._text) e._text = searchText(e);
      if (words.every((w) => e._text.includes(w))) { go(e.seq); return; }
    }
  }
  function addTimeline(events) {
    const ol = $("#timeline");
    const frag = document.createDocumentFragment();
    for (const e of events) {
      if (lastTurnRow === null || e.turn !== lastTurnRow) {
        lastTurnRow = e.turn;
        frag.append(el("li", { class: "turn", "data-turn": e.turn, text: "turn " + e.turn }));
      }
      frag.append(timelineRow(e));
    }
    ol.append(frag);
    if (ui.query) search(ui.query);
  }
  // The current event's row, marked and scrolled into the list's view. The list is the row's
  // offset parent (position: relative), so offsetTop is already measured from the list's top.
  function markTimeline(seq) {
    const old = document.querySelector("#timeline li.here");
    const focused = old && document.activeElement === old;
    if (old) { old.classList.remove("here"); old.setAttribute("tabindex", "-1"); }
    const li = document.getElementById("ev-" + seq);
    if (li) {
      li.classList.add("here");
      li.setAttribute("tabindex", "0");
      const ol = $("#timeline");
      if (li.offsetParent === ol) {
        const top = li.offsetTop;
        if (top < ol.scrollTop || top > ol.scrollTop + ol.clientHeight - li.offsetHeight) ol.scrollTop = top - ol.clientHeight / 2 + li.offsetHeight / 2;
      }
      if (focused) li.focus({ preventScroll: true });
    } else {
      const first = document.querySelector("#timeline li[data-seq]");
      if (first) first.setAttribute("tabindex", "0");
    }
  }

  // -- moving ----------------------------------------------------------------------------------
  function target(how) {
    const n = lastSeq(), s = ui.seq, evs = ui.src.events;
    switch (how) {
      case "start": return 0;
      case "end": return n;
      case "next": return Math.min(n, s + 1);
      case "prev": return Math.max(0, s - 1);
      case "next-decision": for (let i = s; i < n; i++) if (evs[i].kind === "decision") return i + 1; return n;
      case "prev-decision": for (let i = s - 2; i >= 0; i--) if (evs[i].kind === "decision") return i + 1; return 0;
      case "next-turn": { const t = turnAt(s); for (let i = s; i < n; i++) if (evs[i].turn > t) return i + 1; return n; }
      case "prev-turn": {
        // to the first event of this turn; from there, to the first event of the turn before
        const firstOf = (i) => { const t = turnAt(i); while (i > 1 && turnAt(i - 1) === t) i--; return i; };
        if (s === 0) return 0;
        const f = firstOf(s);
        return f < s ? f : f > 1 ? firstOf(f - 1) : 0;
      }
    }
    return s;
  }

  async function go(seq, opts) {
    seq = Math.max(0, Math.min(Number(seq) || 0, lastSeq()));
    ui.seq = seq; ui.want = seq;
    $("#jump").value = seq; $("#scrub").value = seq;
    if (!(opts && opts.keepHash)) writeHash();
    let frame;
    const prior = seq > 0 ? ui.src.frame(seq - 1) : null;   // what changed since: usually the frame just shown
    if (prior) prior.catch(() => null);
    try { frame = await ui.src.frame(seq); } catch (err) { fill($("#current"), el("p", { role: "alert", text: "cannot load #" + seq + ": " + err.message })); return; }
    if (ui.want !== seq) return;        // a newer step superseded this one
    ui.frame = frame;
    drawBoard(frame); drawCurrent(frame); drawWhy(frame); drawNotes(seq); markTimeline(seq);
    const ev = eventAt(seq);
    if (prior) prior.then((before) => { if (ui.want === seq && ui.frame === frame) markChanges(frame, before); }, () => null);
    drawArrow(ev);
    ui.shown = seq;
    document.body.dataset.seq = String(seq);
    if (window.kifuFirstBoard === undefined) window.kifuFirstBoard = performance.now();   // ms since navigation began
    if (ui.src.kind === "served") prefetch(seq, seq - ui.from);
    ui.from = seq;
  }
  // Served frames the next steps will want, asked for now: a few ahead in the way the viewer moves
  // (stepping, playing), one either side after a jump. Each is asked for once (the source caches).
  function prefetch(seq, moved) {
    const ahead = moved === 1 || moved === -1 ? [1, 2, 3, 4].map((k) => seq + k * moved) : [seq + 1, seq - 1];
    for (const k of ahead) if (k >= 0 && k <= lastSeq()) ui.src.frame(k);
  }
  function step(how) { go(target(how)); }
  function redraw() {     // the same position drawn again (a zone opened, the names' language)
    const frame = ui.frame;
    if (!frame) return;
    drawBoard(frame);
    if (frame.seq > 0) ui.src.frame(frame.seq - 1).then((before) => { if (ui.frame === frame) markChanges(frame, before); }, () => null);
    drawArrow(eventAt(frame.seq));
  }

  function writeHash() {
    const h = "#seq=" + ui.seq + (ui.as ? "&as=" + ui.as : "");
    if (location.hash !== h) history.replaceState(null, "", h);
  }
  function readHash() {
    const p = new URLSearchParams(location.hash.slice(1));
    return { seq: p.has("seq") && p.get("seq") !== "" ? Number(p.get("seq")) : null, as: p.get("as") || "", token: p.get("token") };
  }

  function toggleWhy() {
    ui.whyOpen = !ui.whyOpen;
    const b = $("#why-toggle"); if (b) b.setAttribute("aria-pressed", String(ui.whyOpen));
    ui.src.frame(ui.seq).then((f) => { if (ui.seq === f.seq) drawWhy(f); });
  }

  function play(on) {
    const btn = $("#play");
    if (ui.timer) { clearInterval(ui.timer); ui.timer = null; }
    if (on === undefined) on = !ui.timerWanted;
    ui.timerWanted = on;
    btn.textContent = on ? "⏸" : "▶"; btn.setAttribute("aria-label", on ? "pause" : "play"); btn.setAttribute("aria-pressed", String(on));
    if (!on) return;
    ui.timer = setInterval(() => {
      if (ui.seq >= lastSeq()) { if (!ui.src.live) play(false); return; }
      if (ui.shown === ui.seq) step("next");
    }, Number($("#speed").value));
  }
  function speed(delta) {
    const s = $("#speed"); s.selectedIndex = Math.max(0, Math.min(s.options.length - 1, s.selectedIndex + delta));
    if (ui.timerWanted) play(true);
  }

  // -- card text on hover or focus ---------------------------------------------------------------
  // The card as printed (the seed's notation), then in English: its name and gloss (the ruleset's
  // gloss.toml), and what the rules reference says each bracketed term means. A tooltip the pointer
  // may move onto, that Escape dismisses (WCAG 1.4.13).
  let tipFor = null, tipHide = null;
  function showTip(node) {
    clearTimeout(tipHide);
    const name = node.dataset.card, row = catalogue.get(name);
    const tip = $("#tip");
    const stats = row ? columns.filter((c) => c.key !== "name" && c.key !== "text" && row.values && row.values[c.key])
      .map((c) => c.title + " " + row.values[c.key]).join(" · ") : "";
    const notes = (ui.src.meta.glossary || {})[name] || [];
    fill(tip,
      el("div", { class: "tip-name" }, el("b", { lang: "ja", text: name }), node.dataset.id ? " #" + node.dataset.id : "",
         row && row.name_en ? el("span", { class: "en-name", text: " · " + row.name_en }) : null),
      !row ? el("div", { text: "(not in the catalogue)" }) : row.text ? el("div", { class: "seed", lang: "ja", text: row.text }) : null,
      row && row.gloss ? el("div", { class: "en-gloss" }, el("span", { class: "tip-label", text: "English: " }), row.gloss) : null,
      stats ? el("div", { class: "gloss", text: stats }) : null,
      ...notes.map((g) => el("div", { class: "gloss" }, el("span", { lang: "ja", text: g.term }), " — " + g.clause + " " + g.title + ": " + g.text)),
      row && row.invented && row.invented.length ? el("div", { class: "gloss", text: "invented: " + row.invented.join(", ") }) : null);
    const r = node.getBoundingClientRect();
    tip.hidden = false;
    const left = Math.min(window.innerWidth - tip.offsetWidth - 4, Math.max(4, r.left));
    const top = r.bottom + 4 + tip.offsetHeight > window.innerHeight ? r.top - tip.offsetHeight - 4 : r.bottom + 4;
    tip.style.left = Math.max(4, left) + "px"; tip.style.top = Math.max(4, top) + "px";
    if (tipFor && tipFor !== node) tipFor.removeAttribute("aria-describedby");
    node.setAttribute("aria-describedby", "tip");
    tipFor = node;
  }
  function hideTip() {
    clearTimeout(tipHide);
    $("#tip").hidden = true;
    if (tipFor) { tipFor.removeAttribute("aria-describedby"); tipFor = null; }
  }
  function hideTipSoon() { clearTimeout(tipHide); tipHide = setTimeout(hideTip, 300); }

  // -- wiring ----------------------------------------------------------------------------------
  function bindOnce() {
    document.querySelectorAll("[data-go]").forEach((b) => b.addEventListener("click", () => step(b.dataset.go)));
    $("#play").addEventListener("click", () => play());
    $("#speed").addEventListener("change", () => { if (ui.timerWanted) play(true); });
    $("#jump").addEventListener("change", () => go($("#jump").value));
    $("#jump").addEventListener("keydown", (e) => {      // g, a seq, Enter: there, and the keys step again
      if (e.key === "Enter") { e.preventDefault(); go($("#jump").value); $("#jump").blur(); }
    });
    $("#search").addEventListener("input", () => search($("#search").value));
    $("#search").addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); nextFound(e.shiftKey); } });
    $("#en-toggle").addEventListener("click", () => toggleEnglish());
    $("#decks-open").addEventListener("click", showDecks);
    $("#en-toggle").setAttribute("aria-pressed", String(ui.en));
    $("#board-col").addEventListener("scroll", () => { if (ui.frame) drawArrow(eventAt(ui.frame.seq)); });
    window.addEventListener("resize", () => { if (ui.frame) drawArrow(eventAt(ui.frame.seq)); });
    $("#scrub").addEventListener("input", () => go($("#scrub").value));
    $("#timeline").addEventListener("click", (e) => { const li = e.target.closest("li[data-seq]"); if (li) go(li.dataset.seq); });
    $("#timeline").addEventListener("keydown", (e) => {    // a row has the focus: Enter opens it, ↑/↓ move between rows
      const li = e.target.closest && e.target.closest("li[data-seq]");
      if (!li) return;
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); e.stopPropagation(); go(li.dataset.seq); return; }
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault(); e.stopPropagation();
        let n = li;
        do { n = e.key === "ArrowDown" ? n.nextElementSibling : n.previousElementSibling; } while (n && (!n.dataset.seq || n.offsetParent === null));
        if (n) { li.setAttribute("tabindex", "-1"); n.setAttribute("tabindex", "0"); n.focus(); }
      }
    });
    $("#filters").addEventListener("change", (e) => $("#timeline").classList.toggle("hide-" + e.target.value, !e.target.checked));
    $("#help-open").addEventListener("click", () => $("#help").showModal());
    $("#follow").addEventListener("change", (e) => { ui.follow = e.target.checked; });
    const cardOf = (e) => e.target.closest && e.target.closest("[data-card]");
    document.addEventListener("mouseover", (e) => { const c = cardOf(e); if (c) showTip(c); });
    document.addEventListener("mouseout", (e) => { if (cardOf(e)) hideTipSoon(); });
    document.addEventListener("focusin", (e) => { const c = cardOf(e); if (c) showTip(c); });
    document.addEventListener("focusout", (e) => { if (cardOf(e)) hideTip(); });
    $("#tip").addEventListener("mouseenter", () => clearTimeout(tipHide));
    $("#tip").addEventListener("mouseleave", hideTipSoon);
    window.addEventListener("hashchange", () => {     // an address typed or pasted: its seq, and its view (&as=)
      const h = readHash();
      const as = h.as === "judge" ? "" : h.as;
      if (ui.src && as !== (ui.as === "judge" ? "" : ui.as) && (ui.src.may || []).map(String).includes(as || "judge")) {
        const s = $("#as"); s.value = as || "judge"; ui.wantSeq = h.seq; s.dispatchEvent(new Event("change"));
        return;
      }
      if (h.seq !== null && h.seq !== ui.seq) go(h.seq, { keepHash: true });
    });
    document.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && !$("#tip").hidden) { hideTip(); return; }
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const t = e.target;
      if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) {
        if (e.key === "Escape") t.blur();
        return;
      }
      if ($("#help").open || $("#viewer").hidden) return;
      const keys = { ArrowRight: "next", n: "next", ArrowLeft: "prev", p: "prev", "]": "next-decision", ArrowDown: "next-decision",
        "[": "prev-decision", ArrowUp: "prev-decision", T: "next-turn", PageDown: "next-turn", t: "prev-turn", PageUp: "prev-turn",
        Home: "start", End: "end" };
      if (keys[e.key]) { e.preventDefault(); step(keys[e.key]); return; }
      switch (e.key) {
        case " ": if (t && t.tagName === "BUTTON") return; e.preventDefault(); play(); break;
        case "g": e.preventDefault(); $("#jump").focus(); $("#jump").select(); break;
        case "w": toggleWhy(); break;
        case "/": e.preventDefault(); $("#search").focus(); $("#search").select(); break;
        case "e": toggleEnglish(); break;
        case "l": { const li = document.querySelector("#timeline li.here") || document.querySelector("#timeline li[data-seq]"); if (li) { e.preventDefault(); li.focus(); } break; }
        case "?": $("#help").showModal(); break;
        case "+": case "=": speed(1); break;
        case "-": speed(-1); break;
        case "v": { const s = $("#as"); if (!$("#as-wrap").hidden && s.options.length > 1) { s.selectedIndex = (s.selectedIndex + 1) % s.options.length; s.dispatchEvent(new Event("change")); } break; }
      }
    });
  }

  function toggleEnglish() {
    ui.en = !ui.en;
    try { localStorage.setItem("kifu-en", ui.en ? "1" : "0"); } catch (err) { /* storage off */ }
    $("#en-toggle").setAttribute("aria-pressed", String(ui.en));
    redraw();
  }
  // The match as a judge reads its sheet: event, round, table, date, the players, their decks
  function header() {
    const m = ui.src.meta, h = m.header || {};
    const bits = ["event", "round", "table"].filter((k) => h[k]).map((k) => (k === "event" ? "" : k + " ") + h[k]);
    if (h.date) bits.push(String(h.date).replace("T", " ").replace(/\.\d+/, "").replace(/(\+00:00|Z)$/, " UTC"));
    bits.push(m.players.map((p, i) => "seat " + (i + 1) + " " + p + (h.seats && h.seats[i] && h.seats[i] !== "human" ? " (" + h.seats[i] + ")" : "")).join(" vs "));
    const decks = h.decks || [];
    $("#match-info").textContent = bits.join(" · ");
    $("#match-info").title = bits.join(" · ");
    $("#decks-open").hidden = !decks.length;
    $("#decks-open").textContent = decks.length > 1 ? "decks" : "deck";
    const v = m.verified, badge = $("#verified");
    badge.hidden = !v;
    if (v) { badge.textContent = v.text; badge.className = "badge " + (v.ok ? "ok" : "bad"); badge.title = v.detail || ""; badge.setAttribute("role", v.ok ? "status" : "alert"); }
  }
  function showDecks() {
    const h = ui.src.meta.header || {};
    const lists = (h.decks || []).map((d) => {
      const deck = d.deck, out = [el("h3", { text: "Seat " + d.seat + " " + (ui.src.meta.players[d.seat - 1] || "") + (deck && deck.name ? " · " + deck.name : "") })];
      const entries = deck && typeof deck === "object" && !Array.isArray(deck) ? Object.entries(deck) : [["cards", deck]];
      for (const [k, v] of entries) {
        if (k === "name") continue;
        if (Array.isArray(v)) {
          const counts = new Map();
          for (const c of v) { const key = typeof c === "string" ? c : JSON.stringify(c); counts.set(key, (counts.get(key) || 0) + 1); }
          out.push(el("div", { class: "zlabel", text: k + " (" + v.length + ")" }),
            el("ul", {}, ...[...counts].map(([name, n]) => {
              const row = catalogue.get(name);
              return el("li", {}, (n > 1 ? n + "× " : ""), catalogue.has(name) ? cardRef(name, "") : name, row && row.name_en ? " · " + row.name_en : "");
            })));
        } else out.push(el("div", { text: k + ": " + (typeof v === "string" ? v : JSON.stringify(v)) }));
      }
      return el("section", { "data-seat": d.seat }, ...out);
    });
    fill($("#deck-lists"), ...lists);
    $("#decks").showModal();
  }

  function title() {
    const m = ui.src.meta;
    $("#title").textContent = m.ruleset + " · " + lastSeq() + " events" +
      (m.outcome ? " · " + m.outcome : ui.src.live ? " · live" : "") + " · " + (m.viewer ? "seat " + m.viewer + "'s view" : "judge view");
    $("#of").textContent = "of " + lastSeq();
    $("#jump").max = lastSeq(); $("#scrub").max = lastSeq();
    $("#live-wrap").hidden = !ui.src.live;
    document.title = "Kifu · " + m.ruleset + " · " + m.players.join(" vs ");
  }

  function start(src, seq) {
    if (ui.src && ui.src.stop) ui.src.stop.abort();   // the view changed: close the old live stream
    ui.src = src;
    catalogue.clear();
    columns = src.meta.catalogue.columns || [];
    for (const row of src.meta.catalogue.rows || []) catalogue.set(row.name, row);
    fill($("#timeline"), ); lastTurnRow = null;
    addTimeline(src.events);
    $("#login").hidden = true; $("#viewer").hidden = false;
    title();
    const may = src.may || [];
    $("#as-wrap").hidden = may.length < 2;
    fill($("#as"), ...may.map((v) => el("option", { value: v, text: v === "judge" ? "judge" : "seat " + v })));
    $("#as").value = src.meta.viewer ? String(src.meta.viewer) : "judge";
    document.body.classList.add("open");
    ui.clocks = null;
    header();
    // no seq asked for: a live match opens at its newest event (and follows it), a finished one at the start
    go(seq === null || seq === undefined ? (src.live ? src.events.length : 0) : seq);
    if (src.live) follow(src);
  }

  async function follow(src) {
    let busy = false, again = false;
    const refresh = async () => {
      if (busy) { again = true; return; }
      busy = true;
      try {
        do {
          again = false;
          const atEnd = ui.seq === src.events.length;
          const before = src.events.length;
          const added = await src.more();
          if (ui.src !== src) return;
          if (added) {
            src.forget(before);   // the frame at the old end may have been fetched while the match moved on
            addTimeline(src.events.slice(before));
          }
          src.live = !src.meta.outcome;
          if (src.verified) { src.meta.verified = src.verified; header(); }
          title();
          if (added && atEnd && ui.follow) go(src.events.length);
        } while (again);
      } finally { busy = false; }
    };
    const stop = () => { refresh(); };
    for (let tries = 0; src.live && tries < 50 && ui.src === src; tries++) {
      try { await src.stream(refresh, stop); } catch (err) { /* dropped: resume below */ }
      await refresh();
      if (!src.live) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }

  async function boot() {
    bindOnce();
    const inline = $("#kifu-bundle").textContent.trim();
    const hash = readHash();
    if (inline) { openInline(JSON.parse(inline), hash).catch((err) => { $("#title").textContent = err.message; }); return; }
    const m = location.pathname.match(/\/matches\/([^/]+)\/viewer\/?$/);
    if (!m) { $("#title").textContent = "open /matches/<id>/viewer"; return; }
    const base = location.pathname.replace(/\/$/, "");
    const key = KEY_PREFIX + m[1];
    if (hash.token) { sessionStorage.setItem(key, hash.token); }
    ui.as = hash.as === "judge" ? "" : hash.as;
    writeHashOnly(hash.seq);
    const open = async (token, as, seq) => {
      const src = await servedSource(base, token, as).open();
      ui.as = as;
      start(src, seq);
    };
    $("#as").addEventListener("change", () => {
      const v = $("#as").value, seq = ui.wantSeq !== undefined && ui.wantSeq !== null ? ui.wantSeq : ui.seq;
      ui.wantSeq = null;
      open(sessionStorage.getItem(key), v, seq).catch((err) => alert(err.message));
    });
    $("#login").addEventListener("submit", (e) => {
      e.preventDefault();
      const token = $("#token").value.trim();
      open(token, ui.as, readHash().seq).then(() => sessionStorage.setItem(key, token))
        .catch((err) => { $("#login-error").textContent = err.message; });
    });
    const token = sessionStorage.getItem(key);
    if (!token) { $("#login").hidden = false; $("#token").focus(); return; }
    open(token, ui.as, hash.seq).catch((err) => {
      sessionStorage.removeItem(key);
      $("#login").hidden = false; $("#login-error").textContent = err.message;
    });
  }
  async function openInline(packed, hash) {
    const views = packed.views, shared = inflate(packed.meta);
    const keys = views.map(([k]) => k), packs = new Map(views), opened = new Map();   // pairs: JS orders "1" before "judge"
    const load = (k) => {
      if (!opened.has(k)) opened.set(k, Promise.all([inflate(packs.get(k)), shared]).then(([bundle, meta]) => inlineSource(bundle, keys, meta)));
      return opened.get(k);
    };
    $("#as").addEventListener("change", () => {
      const v = $("#as").value, seq = ui.wantSeq !== undefined && ui.wantSeq !== null ? ui.wantSeq : ui.seq;
      ui.wantSeq = null;
      load(v).then((src) => { ui.as = v; start(src, seq); }).catch((err) => alert(err.message));
    });
    const first = keys.includes(hash.as) ? hash.as : keys[0];
    ui.as = first === keys[0] ? "" : first;
    start(await load(first), hash.seq);
  }
  function writeHashOnly(seq) {   // drop a token from the address at once: it must not stay in history
    const h = (seq === null ? "" : "#seq=" + seq + (ui.as ? "&as=" + ui.as : "")) || (ui.as ? "#as=" + ui.as : "");
    history.replaceState(null, "", h || location.pathname + location.search);
  }

  window.kifuViewer = { go, step, ui };
  boot();
})();
