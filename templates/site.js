/* confnotes site: a search box on every page of a built site, and each note's previous and next.
   The index (_site/search/) is loaded by <script> elements, the parts a query needs as it is typed,
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

  // -- search: the index is split (build/search.py): index.js names its files; a query loads the
  // files of its words' first letters (t-*.js), then the titles of the sections it shows (d-*.js)
  var index = null, loading = false, active = -1, shown = [], ranked = [], limit = MAX_RESULTS, asked = 0;
  var parts = {}, waiting = {};
  window.CONFNOTES_SEARCH_PART = function (name, data) { parts[name] = data; };

  function script(src, done, failed) {
    var node = el("script", { src: src, "data-confnotes": "" });
    node.onload = done;
    node.onerror = failed;
    document.body.appendChild(node);
  }

  function load() {
    if (index || loading) { return; }
    loading = true;
    script(link("./_site/search/index.js"), function () { index = window.CONFNOTES_SEARCH; search(); }, unloadable);
  }

  function unloadable() { status.textContent = "The search index could not be loaded."; }

  // the files named, each loaded once (a <script> element each), then ``then``
  function need(names, then) {
    var missing = names.filter(function (name) { return !parts[name]; });
    if (!missing.length) { then(); return; }
    var left = missing.length;
    missing.forEach(function (name) {
      if (!waiting[name]) {
        waiting[name] = [];
        script(link("./_site/search/" + name + ".js"), function () {
          var calls = waiting[name];
          delete waiting[name];
          calls.forEach(function (call) { call(); });
        }, unloadable);
      }
      waiting[name].push(function () { left -= 1; if (!left) { then(); } });
    });
  }

  // the parts that hold a word, and (``prefix``) every longer word it begins (build/search.py:
  // shard_keys): a part's key begins its words, and a word is in the part of the longest key it
  // begins with; words that begin with another character than a letter or digit are by block
  function partsOf(word, prefix) {
    if (!/^[a-z0-9]/.test(word)) { return ["u-" + (word.codePointAt(0) >> 8).toString(16)].filter(function (k) { return index.shards.indexOf(k) >= 0; }); }
    return index.shards.filter(function (key) {
      return key.indexOf("-") < 0 && (word.lastIndexOf(key, 0) === 0 || (prefix && key.lastIndexOf(word, 0) === 0));
    });
  }
  function prefixed(word) { return Array.from(word).length > 1; }  // a word of one letter is looked up as it is

  // the first term of a file at or after text (terms are sorted as JavaScript compares strings)
  function lowerBound(terms, text) {
    var lo = 0, hi = terms.length;
    while (lo < hi) {
      var mid = (lo + hi) >> 1;
      if (terms[mid] < text) { lo = mid + 1; } else { hi = mid; }
    }
    return lo;
  }

  // base-36 gaps ("3,2,z") to the numbers they add up to, each given to ``each``
  function gaps(text, each) {
    if (!text) { return; }
    var last = 0, value = 0;
    for (var i = 0; i < text.length; i++) {
      var c = text.charCodeAt(i);
      if (c === 44) { last += value; each(last); value = 0; } else { value = value * 36 + (c < 58 ? c - 48 : c - 87); }
    }
    each(last + value);
  }

  // the weight of each document for a word: 2 where it holds the word, 1 where it holds a longer
  // word the word begins (a word of two letters or more), 3 more where its title holds the word
  function matches(word) {
    var found = new Uint8Array(index.docs), prefix = prefixed(word);
    partsOf(word, prefix).forEach(function (key) {
      var part = parts["t-" + key];
      for (var n = lowerBound(part.terms, word); n < part.terms.length && part.terms[n].lastIndexOf(word, 0) === 0; n++) {
        if (part.terms[n] === word) {
          gaps(part.postings[n], function (doc) { found[doc] = Math.max(found[doc], 2); });
          gaps(part.titles[n], function (doc) { found[doc] = 5; });
        } else if (prefix) {
          gaps(part.postings[n], function (doc) { if (!found[doc]) { found[doc] = 1; } });
        } else { break; }
      }
    });
    return found;
  }

  function search() {
    var query = words(input.value);
    var asking = ++asked;
    if (!index || !query.length || (input.value.trim().length < 2 && !new RegExp("[" + CJK + "]").test(input.value))) { ranked = []; render(); return; }
    var needed = [];
    query.forEach(function (word) { partsOf(word, prefixed(word)).forEach(function (key) { needed.push("t-" + key); }); });
    need(needed.filter(function (name, n) { return needed.indexOf(name) === n; }), function () {
      if (asking !== asked) { return; }  // the query changed while its files loaded
      var scores = null;
      query.forEach(function (word) {  // every word in the section: the weights add up
        var found = matches(word);
        if (scores === null) { scores = Uint16Array.from(found); return; }
        for (var doc = 0; doc < scores.length; doc++) { scores[doc] = found[doc] && scores[doc] ? scores[doc] + found[doc] : 0; }
      });
      ranked = [];
      for (var doc = 0; doc < scores.length; doc++) { if (scores[doc]) { ranked.push(doc); } }
      ranked.sort(function (a, b) { return scores[b] - scores[a] || a - b; });
      limit = MAX_RESULTS;
      render();
    });
  }

  function docFile(doc) { return "d-" + Math.floor(doc / index.perFile); }

  // the ranked results up to ``limit``, their titles loaded, and an option for the next page
  function render(after) {
    var docs = ranked.slice(0, limit), asking = asked;
    need(docs.map(docFile).filter(function (name, n, all) { return all.indexOf(name) === n; }), function () {
      if (asking !== asked) { return; }
      list.textContent = "";
      shown = docs;
      active = -1;
      docs.forEach(function (doc, n) {
        var part = parts[docFile(doc)], d = part.docs[doc % index.perFile], note = part.notes[d[0]];
        var item = el("li", { role: "option", id: "cn-r-" + n, "aria-selected": "false" });
        var a = el("a", { href: link(note[1]) + (d[1] ? "#" + d[1] : "") });
        a.appendChild(el("span", { "class": "cn-note" }, note[0]));
        if (d[1]) { a.appendChild(el("span", { "class": "cn-section" }, d[2])); }
        item.appendChild(a);
        list.appendChild(item);
      });
      if (ranked.length > docs.length) {
        var more = el("li", { role: "option", id: "cn-r-" + docs.length, "aria-selected": "false", "class": "cn-more" });
        more.appendChild(el("button", { type: "button", tabindex: "-1" }, "Show " + Math.min(MAX_RESULTS, ranked.length - docs.length) + " more"));
        more.addEventListener("mousedown", function (event) { event.preventDefault(); });  // the box keeps the focus
        more.addEventListener("click", showMore);
        list.appendChild(more);
      }
      list.hidden = !docs.length;
      input.setAttribute("aria-expanded", docs.length ? "true" : "false");
      input.removeAttribute("aria-activedescendant");
      if (!input.value.trim()) { status.textContent = ""; }
      else if (!docs.length) { status.textContent = index ? "No note says that." : "Loading…"; }
      else { status.textContent = ranked.length > docs.length ? docs.length + " of " + ranked.length + " sections" : ranked.length + " section" + (ranked.length === 1 ? "" : "s"); }
      if (after) { after(); }
    });
  }

  function showMore() {
    var at = shown.length;
    limit += MAX_RESULTS;
    render(function () { choose(at); });  // the first of the new results, for the keyboard
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
      var chosen = list.children[Math.max(active, 0)];
      if (chosen.classList.contains("cn-more")) { showMore(); } else { window.location.href = chosen.querySelector("a").href; }
      event.preventDefault();
    } else if (event.key === "Escape") { input.value = ""; search(); }
  });
  // "/" jumps to the box, as on most documentation sites
  document.addEventListener("keydown", function (event) {
    if (event.key === "/" && document.activeElement !== input && !/^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement.tagName)) {
      input.focus();
      event.preventDefault();
    }
  });
})();
