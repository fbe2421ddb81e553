/* confnotes site, the attendee's side (build/attend.py): a star on every session, kept in this
   browser; "My schedule" (mine.html) with an .ics of the starred sessions made in the page; "Now
   and next" (now.html) and a line at the current time on today's grid; filters by track, room and
   language that hide empty rooms; the conference's zone or the reader's own; a list of each day for
   phones; the session's time, room and links on its note's page. Offline: the sessions' data is a
   script (_site/sessions.js), loaded by a <script> element where a page needs it. What it adds to a
   page is marked data-confnotes (confnotes serve's in-place update leaves it be). */
(function () {
  "use strict";
  var me = document.currentScript;
  var root = (me && me.dataset.root) || "./";
  var page = me && me.dataset.page;
  var nav = window.CONFNOTES_NAV || { pages: {} };
  if (!nav.timetable) { return; }
  var body = document.body;
  var STORE = "confnotes:" + (nav.conference || "site") + ":";
  var conferenceZone = body.dataset.zone || nav.zone || "";
  var readerZone = "";
  try { readerZone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { readerZone = ""; }

  // -- small things
  function loadSetting(name, fallback) {
    try { var v = window.localStorage.getItem(STORE + name); return v === null ? fallback : JSON.parse(v); } catch (e) { return fallback; }
  }
  function saveSetting(name, value) {
    try { window.localStorage.setItem(STORE + name, JSON.stringify(value)); } catch (e) { /* storage refused: kept for this page */ }
  }
  function link(rel) { return root + rel.replace(/^\.\//, ""); }
  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text) { node.textContent = text; }
    return node;
  }
  function all(selector, within) { return Array.prototype.slice.call((within || document).querySelectorAll(selector)); }
  function withSessions(then) {
    if (window.CONFNOTES_SESSIONS) { then(window.CONFNOTES_SESSIONS); return; }
    var script = el("script", { src: link("./_site/sessions.js"), "data-confnotes": "" });
    script.onload = function () { then(window.CONFNOTES_SESSIONS || { sessions: [] }); };
    document.body.appendChild(script);
  }

  // -- zones: the conference's (the schedule's), or the reader's own, as the reader chose
  function zoned(iso) { return /(?:Z|[+-]\d\d:\d\d)$/.test(iso); }
  function zone() {
    return loadSetting("zone", "conference") === "reader" && readerZone ? readerZone : (conferenceZone || undefined);
  }
  function shown(iso, how) {
    if (!zoned(iso)) { return null; }  // a schedule without a zone: its times are shown as written
    var options = { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: zone() };
    if (how === "day-time") { options.weekday = "short"; options.day = "2-digit"; options.month = "short"; }
    if (how === "day") { options = { weekday: "long", day: "2-digit", month: "long", timeZone: zone() }; }
    return new Intl.DateTimeFormat("en-GB", options).format(new Date(iso));
  }
  function applyZone() {
    all("time[datetime]").forEach(function (time) {
      var text = shown(time.getAttribute("datetime"), time.dataset.show);
      if (text !== null) { time.textContent = text; }
    });
    all(".zone-name").forEach(function (name) { name.textContent = zone() || conferenceZone; });
    all(".cn-zone-of").forEach(function (name) { name.textContent = zone() ? "(" + zone() + ")" : ""; });
  }
  function zoneSwitch() {
    if (!conferenceZone || !readerZone || readerZone === conferenceZone) { return null; }
    var label = el("label", { "class": "cn-zone" }, "Times in ");
    var select = el("select", { id: "cn-zone" });
    select.appendChild(el("option", { value: "conference" }, conferenceZone + " (conference)"));
    select.appendChild(el("option", { value: "reader" }, readerZone + " (yours)"));
    select.value = loadSetting("zone", "conference");
    select.addEventListener("change", function () { saveSetting("zone", select.value); applyZone(); refreshNow(); placeNow(); });
    label.appendChild(select);
    return label;
  }

  // -- stars: the keys of the starred sessions, in this browser
  var stars = loadSetting("stars", {});
  var onStars = [];
  function starred(key) { return Object.prototype.hasOwnProperty.call(stars, key); }
  function toggle(key) {
    if (starred(key)) { delete stars[key]; } else { stars[key] = 1; }
    saveSetting("stars", stars);
    refreshStars();
  }
  function paint(button) {
    var on = starred(button.dataset.key);
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.textContent = on ? "\u2605" : "\u2606";
  }
  function paintStars() { all(".cn-star").forEach(paint); }
  function refreshStars() {  // the stars changed: every button, and what lists the starred sessions
    paintStars();
    onStars.forEach(function (then) { then(); });
  }
  function starButton(key, title) {
    var button = el("button", { type: "button", "class": "cn-star", "data-key": key, "data-confnotes": "", "aria-label": "Star \u201c" + title + "\u201d" });
    button.addEventListener("click", function (event) { event.preventDefault(); event.stopPropagation(); toggle(key); });
    paint(button);
    return button;
  }
  window.addEventListener("storage", function (event) {
    if (event.key === STORE + "stars") { stars = loadSetting("stars", {}); refreshStars(); }
  });

  // -- the toolbar atop the timetable and the attendee's pages
  function toolbar(parts) {
    var bar = el("div", { "class": "cn-tools", "data-confnotes": "" });
    parts.forEach(function (part) { if (part) { bar.appendChild(part); } });
    var main = document.querySelector("main");
    main.parentNode.insertBefore(bar, main);
    return bar;
  }

  // -- the timetable: stars, filters, the view, the line at the current time
  function timetable() {
    var sessions = all(".session[data-key]");
    sessions.forEach(function (session) {
      var title = session.querySelector(".title");
      session.insertBefore(starButton(session.dataset.key, title ? title.textContent : ""), session.firstChild);
    });
    shownSessions = all(".session").map(function (node) {
      var d = node.dataset;
      return { node: node, key: d.key || "", track: d.track || "", room: d.room || "", lang: d.lang || "", item: node.closest(".day-list li") };
    });
    var filters = filterControls(sessions);
    var view = el("div", { "class": "cn-view", role: "group", "aria-label": "View" });
    ["grid", "list"].forEach(function (name) {
      var button = el("button", { type: "button", "data-view": name }, name === "grid" ? "Grid" : "List");
      button.addEventListener("click", function () { saveSetting("view", name); showView(); });
      view.appendChild(button);
    });
    toolbar([filters, view, zoneSwitch()]);
    window.matchMedia("(max-width: 600px)").addEventListener("change", showView);
    showView();
    applyFilters();
  }
  function showView() {
    var chosen = loadSetting("view", "");
    body.classList.toggle("cn-view-grid", chosen === "grid");
    body.classList.toggle("cn-view-list", chosen === "list");
    var listed = chosen ? chosen === "list" : window.matchMedia("(max-width: 600px)").matches;
    all(".cn-view button").forEach(function (button) {
      button.setAttribute("aria-pressed", (button.dataset.view === "list") === listed ? "true" : "false");
    });
    placeNow();  // the grid shown again: the line where the time is
  }

  var FILTERS = [["track", "Track", "All tracks"], ["room", "Room", "All rooms"], ["lang", "Language", "All languages"]];
  var selects = {};   // the filters offered, by name
  var shownSessions = [];  // the timetable's sessions (grid and lists), each read once: {node, key, track, room, lang, item}
  function languageName(code) {
    try { return new Intl.DisplayNames(["en"], { type: "language" }).of(code) || code; } catch (e) { return code; }
  }
  function filterControls(sessions) {
    var box = el("div", { "class": "cn-filters", role: "group", "aria-label": "Filters" });
    var chosen = loadSetting("filters", {});
    FILTERS.forEach(function (spec) {
      var values = [];
      sessions.forEach(function (s) { var v = s.dataset[spec[0]]; if (v && values.indexOf(v) < 0) { values.push(v); } });
      if (values.length < 2) { return; }
      var label = el("label", {}, spec[1] + " ");
      var select = el("select", { "data-filter": spec[0] });
      select.appendChild(el("option", { value: "" }, spec[2]));
      values.sort().forEach(function (v) { select.appendChild(el("option", { value: v }, spec[0] === "lang" ? languageName(v) : v)); });
      select.value = values.indexOf(chosen[spec[0]]) >= 0 ? chosen[spec[0]] : "";
      select.addEventListener("change", function () { chosen[spec[0]] = select.value; saveSetting("filters", chosen); applyFilters(); });
      selects[spec[0]] = select;
      label.appendChild(select);
      box.appendChild(label);
    });
    var only = el("label", {});
    var check = el("input", { type: "checkbox", "data-filter": "starred" });
    check.checked = !!chosen.starred;
    check.addEventListener("change", function () { chosen.starred = check.checked; saveSetting("filters", chosen); applyFilters(); });
    only.appendChild(check);
    only.appendChild(document.createTextNode(" Starred only"));
    box.appendChild(only);
    box.appendChild(el("span", { "class": "cn-shown", "aria-live": "polite" }));
    // a star changes what "starred only" shows; otherwise the filters show what they showed
    onStars.push(function () { if (loadSetting("filters", {}).starred) { applyFilters(); } });
    return box;
  }
  function applyFilters() {
    var chosen = loadSetting("filters", {});
    var wanted = {};
    Object.keys(selects).forEach(function (name) { if (selects[name].value) { wanted[name] = selects[name].value; } });
    var names = Object.keys(wanted);
    var active = names.length > 0 || !!chosen.starred;
    var total = 0, visible = 0, starredAny = false;
    shownSessions.forEach(function (s) {
      var fits = function (name) { return !wanted[name] || s[name] === wanted[name]; };
      // a break stays while its room is shown (it keeps no room of its own), and goes with "starred only"
      var keep = s.key ? names.every(fits) && (!chosen.starred || starred(s.key)) : !chosen.starred && fits("room");
      s.node.hidden = !keep;
      if (s.item) { s.item.hidden = !keep; }
      if (s.key && !s.item) { total += 1; visible += keep ? 1 : 0; starredAny = starredAny || starred(s.key); }
    });
    all("section.day[data-day]").forEach(function (day) { tidyDay(day, active); });
    var count = document.querySelector(".cn-shown");
    if (count) {
      count.textContent = !active ? "" : visible + " of " + total + " sessions" +
        (chosen.starred && !starredAny ? ": none starred yet \u2013 star (\u2606) the sessions you want, with \u201cStarred only\u201d off" : "");
    }
    placeNow();
  }
  // a day's grid with only what the filters show: no empty room, no empty time, no empty day
  function tidyDay(day, active) {
    var table = day.querySelector("table"), rooms = {}, rows = all("tbody tr", day), used = [];
    all("td .session[data-key]", day).forEach(function (s) {
      if (s.hidden) { return; }
      rooms[s.dataset.room] = true;
      var cell = s.closest("td"), row = rows.indexOf(cell.parentNode);
      for (var n = row; n < row + (cell.rowSpan || 1); n++) { used[n] = true; }
    });
    all("thead th[data-room], tbody td[data-room]", table).forEach(function (cell) { cell.classList.toggle("cn-gone", active && !rooms[cell.dataset.room]); });
    // a time with nothing shown is collapsed, not removed: the cells that span it keep their place
    rows.forEach(function (row, n) { row.classList.toggle("cn-collapsed", active && !used[n]); });
    var count = Object.keys(rooms).length;
    table.style.width = active && count ? "calc(3.5rem + " + (count * 11) + "rem)" : "";
    table.style.minWidth = active && count ? "0" : "";
    day.hidden = active && !count;
    var link = document.querySelector('.days a[href="#' + day.id + '"]');
    if (link) { link.hidden = day.hidden; }
  }

  // the current time: a line across today's grid, and the sessions running now marked
  function placeNow() {
    all(".cn-now").forEach(function (line) { line.remove(); });
    all(".cn-running").forEach(function (s) { s.classList.remove("cn-running"); s.removeAttribute("aria-description"); });
    var now = Date.now();
    shownSessions.forEach(function (s) {
      var start = s.node.dataset.start, end = s.node.dataset.end;
      if (zoned(start) && Date.parse(start) <= now && now < Date.parse(end)) {
        s.node.classList.add("cn-running");
        s.node.setAttribute("aria-description", "running now");
      }
    });
    all("section.day[data-day]").forEach(function (day) {
      var scroll = day.querySelector(".grid-scroll");
      if (day.hidden || !scroll.offsetParent) { return; }  // a hidden day, or the list shown: no grid to draw on
      var rows = all("tbody tr", day).filter(function (row) { return !row.classList.contains("cn-collapsed"); });
      var times = rows.map(function (row) { var t = row.querySelector("time[datetime]"); return t ? t.getAttribute("datetime") : ""; });
      if (!times.length || !zoned(times[0])) { return; }
      var ends = all("td .session[data-end]", day).map(function (s) { return Date.parse(s.dataset.end); });
      var last = Math.max.apply(null, ends.concat([Date.parse(times[times.length - 1])]));
      if (now < Date.parse(times[0]) || now >= last) { return; }
      var n = 0;
      while (n + 1 < times.length && Date.parse(times[n + 1]) <= now) { n += 1; }
      var from = Date.parse(times[n]), to = n + 1 < times.length ? Date.parse(times[n + 1]) : last;
      var row = rows[n], table = day.querySelector("table");
      var line = el("div", { "class": "cn-now", "data-confnotes": "", role: "note" });
      var top = row.getBoundingClientRect().top - scroll.getBoundingClientRect().top + scroll.scrollTop;
      line.style.top = (top + row.getBoundingClientRect().height * (now - from) / Math.max(1, to - from)) + "px";
      line.style.width = table.getBoundingClientRect().width + "px";  // across every room, scrolled to or not
      line.appendChild(el("span", {}, "Now " + shown(new Date(now).toISOString())));
      scroll.appendChild(line);
    });
  }

  // -- My schedule: the starred sessions by day, with an .ics of them all
  function mine(main, data) {
    main.textContent = "";
    var chosen = data.sessions.filter(function (s) { return starred(s.key); });
    var download = el("a", { "class": "cn-download", download: "my-schedule.ics" }, "Download my schedule (.ics)");
    if (!chosen.length) {
      main.appendChild(el("p", { "class": "cn-empty" }, "No session starred yet. Star (\u2606) the sessions you want to see in the timetable or on a note's page; they are kept in this browser."));
      return;
    }
    main.appendChild(el("p", { "class": "cn-count" }, " "));
    main.lastChild.appendChild(download);
    refreshDownload(data);
    sessionsByDay(main, chosen, data);
  }
  // the count and the .ics of the sessions starred now
  function refreshDownload(data) {
    var download = document.querySelector(".cn-download");
    if (!download) { return; }
    var chosen = data.sessions.filter(function (s) { return starred(s.key); });
    download.parentNode.firstChild.textContent = chosen.length + " session" + (chosen.length === 1 ? "" : "s") + " starred. ";
    if (download.href) { URL.revokeObjectURL(download.href); }
    download.href = URL.createObjectURL(new Blob([ics(chosen, data)], { type: "text/calendar" }));
    download.hidden = !chosen.length;
  }
  function sessionsByDay(main, list, data) {
    var days = {};
    list.forEach(function (s) { (days[s.day] = days[s.day] || []).push(s); });
    Object.keys(days).sort().forEach(function (day) {
      var section = el("section", { "class": "day", "data-day": day });
      section.appendChild(el("h2", {}, new Intl.DateTimeFormat("en-GB", { weekday: "long", day: "2-digit", month: "long", year: "numeric", timeZone: "UTC" }).format(new Date(day + "T12:00:00Z"))));
      var ol = el("ol", { "class": "cn-sessions" });
      days[day].forEach(function (s, n) {
        var overlaps = days[day].some(function (o, m) { return m !== n && Date.parse(o.start) < Date.parse(s.end) && Date.parse(s.start) < Date.parse(o.end); });
        ol.appendChild(sessionItem(s, data, overlaps));
      });
      section.appendChild(ol);
      main.appendChild(section);
    });
    applyZone();
  }
  function sessionItem(s, data, overlaps) {
    var li = el("li", { "class": "session" + (s.service ? " service" : ""), "data-key": s.key });
    if (!s.service) { li.appendChild(starButton(s.key, s.title)); }  // a break is in no one's schedule
    li.appendChild(s.page ? el("a", { "class": "title", href: link(s.page) }, s.title) : el("span", { "class": "title" }, s.title));
    var when = el("span", { "class": "when" });
    when.appendChild(el("time", { datetime: s.start }, s.start.slice(11, 16)));
    when.appendChild(document.createTextNode("\u2013"));
    when.appendChild(el("time", { datetime: s.end }, s.end.slice(11, 16)));
    when.appendChild(document.createTextNode(" \u00b7 " + s.room));
    li.appendChild(when);
    if (s.speakers) { li.appendChild(el("span", { "class": "speakers" }, s.speakers.join(", "))); }
    if (overlaps) { li.appendChild(el("span", { "class": "badge cn-overlap" }, "overlaps another starred session")); }
    li.appendChild(resources(s, data));
    return li;
  }
  function resources(s, data) {
    var span = el("span", { "class": "resources" });
    Object.keys(data.labels || {}).forEach(function (kind) {
      if (s.links && s.links[kind]) { span.appendChild(el("a", { "class": kind, href: s.links[kind], rel: "noopener" }, data.labels[kind])); span.appendChild(document.createTextNode(" ")); }
    });
    if (s.ics) { span.appendChild(el("a", { "class": "ics", href: link(s.ics), download: "", "aria-label": "Calendar file (.ics) of \u201c" + s.title + "\u201d" }, ".ics")); }
    return span;
  }

  // an iCalendar file of sessions (RFC 5545): times in UTC, or floating as the schedule wrote them
  function icsTime(iso) {
    if (!zoned(iso)) { return iso.replace(/[-:]/g, "").slice(0, 15); }
    return new Date(iso).toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
  }
  function icsText(text) { return String(text).replace(/[\\;,]/g, function (c) { return "\\" + c; }).replace(/\r?\n/g, "\\n"); }
  function fold(line) {
    var out = [], bytes = 0, current = "";
    Array.from(line).forEach(function (ch) {
      var size = new TextEncoder().encode(ch).length;
      if (bytes + size > (out.length ? 74 : 75)) { out.push(current); current = ""; bytes = 0; }
      current += ch;
      bytes += size;
    });
    out.push(current);
    return out.join("\r\n ");
  }
  function ics(list, data) {
    var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//confnotes//my schedule//EN"];
    if (data.conference) { lines.push("X-WR-CALNAME:" + icsText(data.conference + " \u2013 my schedule")); }
    var stamp = icsTime(new Date(Date.now()).toISOString());
    list.forEach(function (s) {
      lines.push("BEGIN:VEVENT", "UID:" + icsText(s.key + "@" + data.uid), "DTSTAMP:" + stamp,
        "DTSTART:" + icsTime(s.start), "DTEND:" + icsTime(s.end), "SUMMARY:" + icsText(s.title));
      if (s.room) { lines.push("LOCATION:" + icsText(s.room)); }
      // the address the site's own file gives: the note's page on the web, else the session's
      var page = s.page && /^https?:/.test(window.location.protocol) ? new URL(link(s.page), window.location.href).href : "";
      var address = page || s.url || "";
      if (address) { lines.push("URL:" + address); }
      var about = [(s.speakers || []).join(", "), s.track ? "Track: " + s.track : ""]
        .concat(Object.keys(s.links || {}).map(function (k) { return (data.labels[k] || k) + ": " + s.links[k]; }), [address]);
      lines.push("DESCRIPTION:" + icsText(about.filter(Boolean).join("\n")));
      lines.push("END:VEVENT");
    });
    lines.push("END:VCALENDAR");
    return lines.map(fold).join("\r\n") + "\r\n";
  }

  // -- Now and next: in each room, the session running now and the one after it
  var nowView = null;
  function refreshNow() { if (nowView) { nowView(true); } }
  var nowShown = "";  // what Now shows (each room's session now and next): drawn again only when it changes
  function nowAndNext(main, data, force) {
    var now = Date.now();
    var talks = data.sessions.filter(function (s) { return zoned(s.start); });
    var rooms = [], found = [];
    talks.forEach(function (s) { if (rooms.indexOf(s.room) < 0) { rooms.push(s.room); } });
    rooms.forEach(function (room) {
      var here = talks.filter(function (s) { return s.room === room; });
      var running = here.filter(function (s) { return Date.parse(s.start) <= now && now < Date.parse(s.end); })[0];
      var next = here.filter(function (s) { return Date.parse(s.start) > now; }).sort(function (a, b) { return Date.parse(a.start) - Date.parse(b.start); })[0];
      if (running || next) { found.push([room, running, next]); }
    });
    var clockLine = "It is " + shown(new Date(now).toISOString(), "day-time") + (zone() ? " (" + zone() + ")" : "") + ".";
    var signature = JSON.stringify(found.map(function (f) { return [f[0], f[1] && f[1].key, f[2] && f[2].key]; }));
    var clockNode = main.querySelector(".cn-clock");
    if (clockNode && signature === nowShown && !force) { clockNode.textContent = clockLine; return; }  // the focus stays where it is
    nowShown = signature;
    main.textContent = "";
    main.appendChild(el("p", { "class": "cn-clock" }, clockLine));
    if (!found.length) {
      main.appendChild(el("p", { "class": "cn-empty" }, "The conference is over: nothing runs now or later."));
      return;
    }
    var table = el("table", { "class": "cn-now-next" });
    var head = el("tr", {});
    ["Room", "Now", "Next"].forEach(function (name) { head.appendChild(el("th", { scope: "col" }, name)); });
    table.appendChild(el("thead", {})).appendChild(head);
    var tbody = table.appendChild(el("tbody", {}));
    found.forEach(function (f) {
      var row = el("tr", { "data-room": f[0] });
      row.appendChild(el("th", { scope: "row" }, f[0]));
      [f[1], f[2]].forEach(function (s, n) {
        var cell = el("td", { "data-label": n ? "Next" : "Now" });  // the label a phone shows, where the header is not
        if (s) {
          var item = sessionItem(s, data, false);
          item.querySelector(".when").firstChild.dataset.show = n && s.day !== (f[1] || {}).day ? "day-time" : "";
          cell.appendChild(item);
        } else { cell.appendChild(el("p", { "class": "cn-nothing" }, n ? "Nothing later" : "Nothing now")); }
        row.appendChild(cell);
      });
      tbody.appendChild(row);
    });
    main.appendChild(table);
    applyZone();
  }

  // -- a note's page: its session's time, room, star and links
  function notePage(key, data) {
    var s = data.sessions.filter(function (x) { return x.key === key; })[0];
    var main = document.querySelector("main") || document.body;
    if (!s) { return; }
    var box = el("p", { "class": "cn-session", "data-confnotes": "", "data-key": key });
    box.appendChild(starButton(key, s.title));
    box.appendChild(el("time", { datetime: s.start, "data-show": "day-time" }, s.start.slice(0, 16).replace("T", " ")));
    box.appendChild(document.createTextNode("\u2013"));
    box.appendChild(el("time", { datetime: s.end }, s.end.slice(11, 16)));
    box.appendChild(document.createTextNode(" "));
    box.appendChild(el("span", { "class": "cn-zone-of" }));  // the zone the times are in: said, as they may be the reader's
    box.appendChild(document.createTextNode(" \u00b7 " + s.room + " "));
    box.appendChild(resources(s, data));
    main.insertBefore(box, main.firstChild);
    applyZone();
  }

  // -- search results: a star on each that is a session's note
  function starResults() {
    var results = document.getElementById("cn-results");
    if (!results || !nav.sessions) { return; }
    new MutationObserver(function () {
      all("li > a", results).forEach(function (a) {
        var target = a.getAttribute("href").split("#")[0].replace(root, "").replace(/^\.\//, "");
        var key = nav.sessions[decodeURIComponent(target)];
        if (key && !a.parentNode.querySelector(".cn-star")) {
          var button = starButton(key, a.querySelector(".cn-note").textContent);
          button.tabIndex = -1;  // the list is a listbox: the arrows move through it, and * stars the one chosen (below)
          a.parentNode.insertBefore(button, a);
        }
      });
    }).observe(results, { childList: true });
    // from the search box: * stars (or unstars) the result the arrow keys chose, and says so
    var box = document.getElementById("cn-q"), status = document.querySelector(".cn-status");
    box.addEventListener("keydown", function (event) {
      var chosen = box.getAttribute("aria-activedescendant");
      var star = chosen && document.getElementById(chosen) && document.getElementById(chosen).querySelector(".cn-star");
      if (event.key !== "*" || !star) { return; }
      event.preventDefault();
      star.click();
      var title = star.getAttribute("aria-label").replace(/^Star /, "");
      if (status) { status.textContent = (starred(star.dataset.key) ? "Starred " : "Unstarred ") + title; }
    });
  }

  // the sessions of a track, speaker or tag: a star on each
  function listPage() {
    all("tr[data-key]").forEach(function (row) {
      var title = row.querySelector(".title");
      if (title) { title.parentNode.insertBefore(starButton(row.dataset.key, title.textContent), title); }
    });
    toolbar([zoneSwitch()]);
  }

  function start() {
    var attend = document.getElementById("cn-attend");
    if (body.classList.contains("timetable-page")) {
      timetable();
    } else if (body.classList.contains("list-page")) {
      listPage();
    } else if (attend) {
      toolbar([zoneSwitch()]);
      withSessions(function (data) {
        if (attend.dataset.view === "mine") {
          // a star toggled here leaves its session in place (the focus stays on it, and it can be
          // starred again); the .ics follows; stars changed in another tab draw the page again
          onStars.push(function () { refreshDownload(data); });
          window.addEventListener("storage", function (event) { if (event.key === STORE + "stars") { mine(attend, data); } });
          mine(attend, data);
        }
        else { nowView = function (force) { nowAndNext(attend, data, force); }; nowView(); window.setInterval(nowView, 30000); }
      });
    } else if (page && nav.sessions && nav.sessions[page]) {
      withSessions(function (data) { notePage(nav.sessions[page], data); });
    }
    applyZone();
    paintStars();
    starResults();
    if (body.classList.contains("timetable-page")) { window.setInterval(placeNow, 30000); window.addEventListener("resize", placeNow); }
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
})();
