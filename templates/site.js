/* confnotes site: a search box on every page of a built site, and each note's previous and next.
   The index (_site/search-index.js) is loaded by a <script> element the first time the box is used,
   so search works from file:// as well as from a server. Nothing is fetched from elsewhere. What it
   adds to a page is marked data-confnotes: confnotes serve's in-place update of a saved note's page
   leaves it be (and the page's <head> is never changed). */
(function () {
  "use strict";
  var me = document.currentScript;
  var root = (me && me.dataset.root) || "./";
  var page = me && me.dataset.page;
  var nav = window.CONFNOTES_NAV || { timetable: false, pages: {} };
  var CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff";
  var WORD = new RegExp("[" + CJK + "]|(?:(?![" + CJK + "])[\\p{L}\\p{N}_])+", "gu");
  var MAX_RESULTS = 20;

  // the words of a text, as confnotes indexed them (build/search.py: words)
  var LETTERS = { "ß": "ss", "ø": "o", "ł": "l", "đ": "d", "ı": "i", "æ": "ae", "œ": "oe", "þ": "th", "ð": "d", "ħ": "h" };
  function words(text) {
    var folded = text.normalize("NFKD").replace(/\p{Mn}/gu, "").toLowerCase().replace(/[ßøłđıæœþðħ]/g, function (c) { return LETTERS[c]; });
    return (folded.match(WORD) || []).filter(function (w) { return w !== "_" && w.length <= 60; });
  }

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text) { node.textContent = text; }
    return node;
  }

  function link(rel) { return root + rel.replace(/^\.\//, ""); }

  // -- the bar: the site's pages and the search box
  var bar = el("div", { "class": "cn-bar", "data-confnotes": "" });
  var links = el("nav", { "class": "cn-links", "aria-label": "Site" });
  links.appendChild(el("a", { href: link("./index.html") }, "All notes"));
  if (nav.timetable) {
    links.appendChild(el("a", { href: link("./timetable.html") }, "Timetable"));
    links.appendChild(el("a", { href: link("./browse.html") }, "Tracks, speakers, tags"));
    links.appendChild(el("a", { href: link("./mine.html") }, "My schedule"));
    links.appendChild(el("a", { href: link("./now.html") }, "Now"));
  }
  var box = el("div", { "class": "cn-search", role: "search" });
  var input = el("input", {
    type: "search", id: "cn-q", placeholder: "Search the notes", "aria-label": "Search the notes", autocomplete: "off",
    role: "combobox", "aria-expanded": "false", "aria-controls": "cn-results", "aria-autocomplete": "list"
  });
  var list = el("ul", { id: "cn-results", role: "listbox", "aria-label": "Matching sections" });
  var status = el("p", { "class": "cn-status", "aria-live": "polite" });
  list.hidden = true;
  box.appendChild(input);
  box.appendChild(status);
  box.appendChild(list);
  bar.appendChild(links);
  bar.appendChild(box);
  document.body.insertBefore(bar, document.body.firstChild);

  // -- previous and next, in the schedule's order (or the index's)
  var around = page && nav.pages[page];
  if (around && (around[0] || around[2])) {
    var pn = el("nav", { "class": "cn-prevnext", "aria-label": "Previous and next note", "data-confnotes": "" });
    if (around[0]) { pn.appendChild(el("a", { href: link(around[0]), rel: "prev", "class": "cn-prev" }, "← " + around[1])); }
    if (around[2]) { pn.appendChild(el("a", { href: link(around[2]), rel: "next", "class": "cn-next" }, around[3] + " →")); }
    var main = document.querySelector("main");
    (main ? main.parentNode : document.body).insertBefore(pn, main ? main.nextSibling : null);
  }

  // -- a session the schedule no longer has (cancelled): said at the top of its note's page
  if (page && (nav.cancelled || []).indexOf(page) >= 0) {
    var gone = el("p", { "class": "cn-cancelled", role: "note", "data-confnotes": "" },
      "The schedule no longer has this session: it was cancelled, or moved off the schedule. These notes are kept.");
    var holder = document.querySelector("main") || document.body;
    holder.insertBefore(gone, holder.firstChild);
  }

  // -- search
  var index = null, loading = false, active = -1, shown = [];

  function load() {
    if (index || loading) { return; }
    loading = true;
    var script = el("script", { src: link("./_site/search-index.js"), "data-confnotes": "" });
    script.onload = function () { index = window.CONFNOTES_SEARCH; search(); };
    script.onerror = function () { status.textContent = "The search index could not be loaded."; };
    document.body.appendChild(script);
  }

  // the first term at or after text (terms are sorted as JavaScript compares strings)
  function lowerBound(text) {
    var lo = 0, hi = index.terms.length;
    while (lo < hi) {
      var mid = (lo + hi) >> 1;
      if (index.terms[mid] < text) { lo = mid + 1; } else { hi = mid; }
    }
    return lo;
  }

  function postings(n) {
    var out = [], last = 0;
    index.postings[n].split(",").forEach(function (gap) { last += parseInt(gap, 36); out.push(last); });
    return out;
  }

  // documents holding a word that starts with ``word`` (exact matches score more)
  function matches(word) {
    var found = new Map();
    for (var n = lowerBound(word); n < index.terms.length && index.terms[n].lastIndexOf(word, 0) === 0; n++) {
      var weight = index.terms[n] === word ? 2 : 1;
      postings(n).forEach(function (doc) { found.set(doc, Math.max(found.get(doc) || 0, weight)); });
    }
    return found;
  }

  function search() {
    var query = words(input.value);
    if (!index || !query.length || (input.value.trim().length < 2 && !new RegExp("[" + CJK + "]").test(input.value))) { render([]); return; }
    var scores = null;
    query.forEach(function (word) {
      var found = matches(word);
      var next = new Map();
      found.forEach(function (weight, doc) {
        if (scores === null || scores.has(doc)) { next.set(doc, (scores ? scores.get(doc) : 0) + weight); }
      });
      scores = next;
    });
    var results = [];
    scores.forEach(function (score, doc) {
      var title = words(index.docs[doc][2]);
      query.forEach(function (word) { if (title.indexOf(word) >= 0) { score += 3; } });
      results.push([score, doc]);
    });
    results.sort(function (a, b) { return b[0] - a[0] || a[1] - b[1]; });
    render(results.slice(0, MAX_RESULTS).map(function (r) { return r[1]; }), results.length);
  }

  function render(docs, total) {
    list.textContent = "";
    shown = docs;
    active = -1;
    docs.forEach(function (doc, n) {
      var d = index.docs[doc], note = index.notes[d[0]];
      var item = el("li", { role: "option", id: "cn-r-" + n, "aria-selected": "false" });
      var a = el("a", { href: link(note[1]) + (d[1] ? "#" + d[1] : "") });
      a.appendChild(el("span", { "class": "cn-note" }, note[0]));
      if (d[1]) { a.appendChild(el("span", { "class": "cn-section" }, d[2])); }
      item.appendChild(a);
      list.appendChild(item);
    });
    list.hidden = !docs.length;
    input.setAttribute("aria-expanded", docs.length ? "true" : "false");
    input.removeAttribute("aria-activedescendant");
    if (!input.value.trim()) { status.textContent = ""; }
    else if (!docs.length) { status.textContent = index ? "No note says that." : "Loading…"; }
    else { status.textContent = total > docs.length ? "First " + docs.length + " of " + total + " sections" : total + " section" + (total === 1 ? "" : "s"); }
  }

  function choose(n) {
    var items = list.children;
    if (!items.length) { return; }
    active = (n + items.length) % items.length;
    Array.prototype.forEach.call(items, function (item, i) { item.setAttribute("aria-selected", i === active ? "true" : "false"); });
    input.setAttribute("aria-activedescendant", "cn-r-" + active);
    items[active].scrollIntoView({ block: "nearest" });
  }

  input.addEventListener("focus", function () { load(); if (shown.length) { list.hidden = false; } });
  // leaving the box (a click elsewhere, Tab) closes the results; a click on one is taken first
  box.addEventListener("focusout", function (event) {
    if (!box.contains(event.relatedTarget)) { list.hidden = true; input.setAttribute("aria-expanded", "false"); }
  });
  input.addEventListener("input", function () { load(); search(); });
  input.addEventListener("keydown", function (event) {
    if (event.key === "ArrowDown") { choose(active + 1); event.preventDefault(); }
    else if (event.key === "ArrowUp") { choose(active < 0 ? -1 : active - 1); event.preventDefault(); }
    else if (event.key === "Enter" && shown.length) {
      var target = list.children[Math.max(active, 0)].querySelector("a");
      window.location.href = target.href;
      event.preventDefault();
    } else if (event.key === "Escape") { input.value = ""; render([]); }
  });
  // "/" jumps to the box, as on most documentation sites
  document.addEventListener("keydown", function (event) {
    if (event.key === "/" && document.activeElement !== input && !/^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement.tagName)) {
      input.focus();
      event.preventDefault();
    }
  });
})();
