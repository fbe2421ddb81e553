/* confnotes deck: keyboard, click, tap and swipe navigation, #N deep links, go to slide (number +
   Enter), notes (S), overview (O), black/white screen (B/W), help (?) and a presenter view (P) in a
   second window that the audience window follows; an incremental list's items are revealed one step
   at a time. Works offline from the one file: no network. */
(function () {
  "use strict";
  var slides = Array.prototype.slice.call(document.querySelectorAll("main.slides > .slide"));
  var panel = document.querySelector(".notes-panel");
  var panelBody = document.querySelector(".notes-panel-body");
  var help = document.querySelector(".help");
  var planNode = document.getElementById("talk-plan");
  var plan = planNode ? JSON.parse(planNode.textContent) : { slides: [], sections: [], total: 0 };
  var presenter = /^#presenter(:|$)/.test(window.location.hash);
  var current = 0;
  var playedOnce = false; // whether a slide has been shown yet (the first one plays its videos too)
  var step = 0;           // how many of the current slide's steps are revealed (incremental lists)
  var screen = "";        // "", "black" or "white": what the audience sees instead of the slide
  var self = String(Math.random()).slice(2);
  var sent = 0;           // how many messages this window has sent: each carries its number
  var heard = {};         // the last number applied from each other window
  var channelName = "confnotes-deck:" + window.location.pathname;
  var channel = null;
  var presenterWindow = null;

  function clamp(i) { return Math.max(0, Math.min(slides.length - 1, i)); }
  /* videos: a video asked to autoplay plays when its slide is shown, from its start, and every
     video pauses when its slide is left; the presenter's copies never play */
  var videos = Array.prototype.slice.call(document.querySelectorAll("main.slides video"));
  videos.forEach(function (video) {
    if (video.autoplay) { video.setAttribute("data-autoplay", ""); video.autoplay = false; video.pause(); }
  });
  function playVideos(index, previous) {
    if (presenter) { videos.forEach(function (video) { video.pause(); }); return; }
    if (previous !== index) {
      if (previous >= 0) { slides[previous].querySelectorAll("video").forEach(function (video) { video.pause(); }); }
      slides[index].querySelectorAll("video[data-autoplay]").forEach(function (video) {
        video.currentTime = 0;
        var playing = video.play();
        if (playing && playing.catch) { playing.catch(function () { /* the browser's autoplay rule */ }); }
      });
    }
  }
  function fromHash() {
    var match = /^#(?:presenter:)?(\d+)$/.exec(window.location.hash);
    return match ? clamp(parseInt(match[1], 10) - 1) : 0;
  }
  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text) { node.textContent = text; }
    return node;
  }
  function button(label, action, title, className) {
    var node = el("button", "pv-button" + (className ? " " + className : ""), label);
    node.type = "button";
    node.title = title;
    if (label.length <= 2) { node.setAttribute("aria-label", title.replace(/ \(.*\)$/, "")); }  // a symbol: say what it does
    node.addEventListener("click", function (event) { event.stopPropagation(); action(); node.blur(); });
    return node;
  }
  function storage(kind) {
    try { return window[kind]; } catch (e) { return null; }  // storage may be off (file:// in some browsers)
  }
  function rescale() {
    var scale = Math.min(window.innerWidth / 1280, window.innerHeight / 720);
    document.documentElement.style.setProperty("--scale", String(scale));
    if (presenter) { fitFrames(); }
  }

  /* ------------------------------------------------------------ keeping windows in step */

  function send() {
    sent += 1;
    var message = { kind: "confnotes-go", index: current, step: step, screen: screen, source: self, seq: sent };
    if (channel) { channel.postMessage(message); }
    else {
      var local = storage("localStorage");
      try { if (local) { local.setItem(channelName, JSON.stringify({ index: current, step: step, screen: screen, source: self, seq: sent, t: Date.now() })); } }
      catch (e) { /* storage may be full or off: the direct link below still works */ }
    }
    var other = presenter ? window.opener : presenterWindow;
    if (other && !other.closed) {
      try { other.postMessage(message, "*"); } catch (e) { /* closed meanwhile */ }
    }
    /* serve --audience: the presenter's page publishes the slide to the phones that follow */
    window.dispatchEvent(new CustomEvent("confnotes:shown", { detail: { index: current, step: step, screen: screen } }));
  }
  function receive(message) {
    if (!message || message.kind !== "confnotes-go" || message.source === self) { return; }
    /* a message comes twice (channel and direct link), and the two roads do not keep each other's
       order: apply each window's messages once, newest only, or a late copy undoes a later change */
    var seq = Number(message.seq);
    if (seq > 0) {
      if (seq <= (heard[message.source] || 0)) { return; }
      heard[message.source] = seq;
    }
    if (typeof message.screen === "string" && message.screen !== screen) { setScreen(message.screen, true); }
    var index = clamp(Number(message.index));
    var wanted = Math.max(0, Number(message.step) || 0);
    if (index !== current) { show(index, true, wanted); }
    else if (wanted !== step) { reveal(wanted, true); }
  }
  if (typeof window.BroadcastChannel === "function") {
    channel = new window.BroadcastChannel(channelName);
    channel.onmessage = function (event) { receive(event.data); };
  } else {
    window.addEventListener("storage", function (event) {
      if (event.key === channelName && event.newValue) {
        try { receive(Object.assign({ kind: "confnotes-go" }, JSON.parse(event.newValue))); } catch (e) { /* not ours */ }
      }
    });
  }
  /* serve --audience: a follower's page shows the slide the presenter published */
  window.addEventListener("confnotes:follow", function (event) {
    var d = event.detail || {};
    receive({ kind: "confnotes-go", index: d.index, step: d.step, screen: d.screen || "", source: "presenter", seq: 0 });
  });
  window.addEventListener("message", function (event) {
    if (event.source && (event.source === window.opener || event.source === presenterWindow)) { receive(event.data); }
  });

  /* ------------------------------------------------------------ showing a slide */

  /* the step values of a slide's fragments, in order (an item and its sub-items share one) */
  function stepsOf(slide) {
    var seen = [];
    Array.prototype.forEach.call(slide.querySelectorAll(".fragment[data-step]"), function (node) {
      var value = Number(node.getAttribute("data-step"));
      if (seen.indexOf(value) < 0) { seen.push(value); }
    });
    return seen.sort(function (a, b) { return a - b; });
  }
  function revealIn(slide, count) {
    var steps = stepsOf(slide);
    var upto = count > 0 ? steps[Math.min(count, steps.length) - 1] : 0;
    Array.prototype.forEach.call(slide.querySelectorAll(".fragment[data-step]"), function (node) {
      node.classList.toggle("shown", Number(node.getAttribute("data-step")) <= upto);
    });
    walkCode(slide);
  }
  /* a code walk-through ({2|4-5} on a fence): the lines of the step reached are marked, the
     rest dimmed; its first step as the slide arrives, each next one a fragment (render/inline/code.py) */
  function walkCode(slide) {
    Array.prototype.forEach.call(slide.querySelectorAll("pre[data-code-steps]"), function (pre) {
      var groups = JSON.parse(pre.getAttribute("data-code-steps"));
      var reached = pre.querySelectorAll(".code-step.shown").length;  // a block not reached yet is plain
      var lines = reached ? groups[Math.min(reached, groups.length) - 1] : null;
      Array.prototype.forEach.call(pre.querySelectorAll(".line[data-line]"), function (line) {
        var on = lines === null || lines.indexOf(Number(line.getAttribute("data-line"))) >= 0;
        line.classList.toggle("hl", lines !== null && on);
        line.classList.toggle("dim", !on);
      });
    });
  }
  /* a slide's first code walk-through shows its first step on arriving, unless something on the
     slide comes before it a key at a time (a list, another block): then it is a step of its own */
  function arriveWithCode(slide) {
    var pre = slide.querySelector("pre[data-code-steps]");
    var first = pre && pre.querySelector(".code-step");
    if (!first) { return; }
    var before = Array.prototype.some.call(slide.querySelectorAll(".fragment"), function (node) {
      return !pre.contains(node) && (node.compareDocumentPosition(pre) & Node.DOCUMENT_POSITION_FOLLOWING);
    });
    if (!before) { first.classList.remove("fragment"); first.classList.add("shown"); }
  }
  Array.prototype.forEach.call(document.querySelectorAll(".slide"), arriveWithCode);
  function reveal(count, remote) {
    step = Math.max(0, Math.min(count, stepsOf(slides[current]).length));
    revealIn(slides[current], step);
    if (presenter) { presenterShow(current); }
    if (!remote) { send(); }
  }
  /* step: how many of the slide's steps show (undefined: none; going back, all of them) */
  function show(index, remote, shown) {
    var previous = current;
    current = clamp(index);
    step = Math.max(0, Math.min(shown === undefined ? 0 : shown, stepsOf(slides[current]).length));
    revealIn(slides[current], step);
    slides.forEach(function (slide, i) {
      var on = i === current;
      slide.classList.toggle("current", on);
      slide.setAttribute("aria-hidden", on ? "false" : "true");
    });
    var hash = (presenter ? "#presenter:" : "#") + (current + 1);
    if (window.location.hash !== hash) { window.history.replaceState(null, "", hash); }
    var notes = slides[current].querySelector(".notes");
    panelBody.innerHTML = notes ? notes.innerHTML : "<p><em>No notes for this slide.</em></p>";
    document.body.setAttribute("data-slide", String(current + 1));
    playVideos(current, previous === current && !playedOnce ? -1 : previous);
    playedOnce = true;
    if (presenter) { presenterShow(previous); }
    if (!remote) { send(); }
  }
  /* forward: the next step of the slide's list, else the next slide; back: the step before, else
     the slide before, whole */
  function advance(by) {
    var steps = stepsOf(slides[current]).length;
    if (by > 0 && step < steps) { reveal(step + 1); }
    else if (by < 0 && step > 0) { reveal(step - 1); }
    else if (by < 0) { show(current - 1, false, current > 0 ? stepsOf(slides[current - 1]).length : 0); }
    else { show(current + by); }
  }
  function toggleOverview(on) {
    document.body.classList.toggle("overview", on);
    if (!on) { slides[current].scrollIntoView({ block: "nearest" }); }
  }
  function openPresenter() {
    var url = window.location.href.split("#")[0] + "#presenter:" + (current + 1);
    presenterWindow = window.open(url, "confnotes-presenter", "popup,width=1280,height=800");
  }

  /* black or white screen (B, W): the audience sees nothing but the colour; the presenter keeps its view */
  var curtain = el("div", "deck-screen");
  curtain.setAttribute("aria-hidden", "true");
  document.body.appendChild(curtain);
  function setScreen(value, remote) {
    screen = value;
    document.body.setAttribute("data-screen", screen || "slide");
    if (view.screen) {
      view.screen.hidden = !screen;
      view.screen.textContent = screen ? "Audience: " + screen + " screen" : "";
      view.screen.title = screen ? "Press " + screen.charAt(0).toUpperCase() + " again, or the button, to show the slide" : "";
      view.black.textContent = screen ? "Show slide" : "Black";
    }
    if (!remote) { send(); }
  }

  /* go to a slide: type its number, then Enter (Escape forgets it) */
  var typed = "";
  var typedTimer = 0;
  var gotoBox = el("div", "goto");
  gotoBox.hidden = true;
  gotoBox.setAttribute("role", "status");
  document.body.appendChild(gotoBox);
  function setTyped(value) {
    typed = value;
    gotoBox.hidden = !typed;
    gotoBox.textContent = typed ? "Go to slide " + typed + " (Enter)" : "";
    window.clearTimeout(typedTimer);
    if (typed) { typedTimer = window.setTimeout(function () { setTyped(""); }, 4000); }
  }

  /* on-screen controls for phones and tablets (shown on touch screens only, by the style sheet) */
  var controls = el("nav", "deck-controls");
  controls.setAttribute("aria-label", "Slide controls");
  controls.appendChild(button("\u2039", function () { advance(-1); }, "Previous slide", "deck-control"));
  controls.appendChild(button("\u203A", function () { advance(1); }, "Next slide", "deck-control"));
  document.body.appendChild(controls);

  /* ------------------------------------------------------------ the presenter view */

  var view = {};
  var started = false;    // the clock has started since it was last reset
  var paused = false;
  var since = 0;          // Date.now() when the clock last started or resumed
  var shownAt = Date.now(); // when the slide on screen was shown (before the clock starts: the talk's first minutes)
  var banked = 0;         // milliseconds counted before that
  var recording = false;
  var spent = {};         // rehearsal: milliseconds per slide, by the slide's identity
  var mark = 0;           // rehearsal: when time last went into spent
  var stateKey = "confnotes-presenter:" + window.location.pathname;
  var sizeKey = "confnotes-notes-size";
  var ids = slides.map(function () { return ""; });

  /* a slide's identity survives slides added or removed before it: its part, its title and which
     slide of that title in that part it is */
  function identify() {
    var seen = {};
    slides.forEach(function (slide, i) {
      var info = describe(i);
      var key = info.section + "\u0000" + info.title;
      seen[key] = (seen[key] || 0) + 1;
      ids[i] = key + "\u0000" + seen[key];
    });
  }
  function describe(i) {
    var heading = slides[i].querySelector(".slide-title");
    var title = "";
    if (heading) {
      var copy = heading.cloneNode(true);
      Array.prototype.forEach.call(copy.querySelectorAll(".cont"), function (n) { n.remove(); });
      title = copy.textContent.replace(/\s+/g, " ").trim();
    }
    var planned = plan.slides[i];
    var section = planned && plan.sections[planned.section] ? plan.sections[planned.section].title : "";
    return { title: title, section: section };
  }

  function clock(ms, up) {
    var seconds = Math.max(0, up ? Math.ceil(ms / 1000) : Math.floor(ms / 1000));
    var minutes = Math.floor(seconds / 60);
    var rest = seconds % 60;
    return minutes + ":" + (rest < 10 ? "0" : "") + rest;
  }
  function running() { return started && !paused; }
  function elapsed() { return !started ? 0 : banked + (paused ? 0 : Date.now() - since); }
  /* the time since the last mark goes to the slide on screen, while recording and the clock runs */
  function account(index) {
    var now = Date.now();
    var id = ids[typeof index === "number" ? index : current];
    if (recording && running()) { spent[id] = (spent[id] || 0) + now - mark; }
    mark = now;
  }
  function remember() {
    var session = storage("sessionStorage");
    if (!session || !view.root) { return; }
    try {
      session.setItem(stateKey, JSON.stringify({
        started: started, paused: paused, since: since, banked: banked,
        recording: recording, spent: spent, mark: mark, slide: ids[current]
      }));
    } catch (e) { /* full or off: the clock still runs, it just will not survive a reload */ }
  }
  function restore() {
    var session = storage("sessionStorage");
    var saved = null;
    try { saved = session ? JSON.parse(session.getItem(stateKey) || "null") : null; } catch (e) { saved = null; }
    if (!saved || typeof saved !== "object") { return null; }
    started = !!saved.started;
    paused = !!saved.paused;
    since = Number(saved.since) || 0;
    banked = Number(saved.banked) || 0;
    recording = !!saved.recording;
    spent = saved.spent && typeof saved.spent === "object" ? saved.spent : {};
    mark = Number(saved.mark) || 0;
    return typeof saved.slide === "string" ? saved.slide : null;
  }

  function buildPresenter() {
    document.body.classList.add("presenter");
    document.title = "Presenter · " + document.title;
    identify();
    var root = view.root = el("div", "presenter-view");
    root.setAttribute("aria-label", "Presenter view");

    var bar = el("header", "pv-bar");
    view.position = el("span", "pv-position");
    view.clock = el("span", "pv-clock");
    view.clock.title = "Time of day";
    view.screen = el("span", "pv-screen");
    view.screen.hidden = true;
    view.pause = button("Pause", togglePause, "Pause the clock for questions (Q)");
    view.reset = button("Reset", resetClock, "Reset the clock to 0:00; it starts again on the next slide or T (0)");
    view.record = button("Record rehearsal", toggleRecording, "Record the time spent on each slide (R)", "pv-record");
    view.save = button("Save timings", saveTimings, "Download the rehearsal's timings for confnotes time --rehearsal");
    view.black = button("Black", function () { setScreen(screen ? "" : "black"); }, "Black screen for the audience, or back to the slide (B)");
    view.help = button("?", toggleHelp, "Keys (?)");
    [view.position, view.clock, view.screen, el("span", "pv-spacer"), view.pause, view.reset, view.record, view.save, view.black, view.help]
      .forEach(function (n) { bar.appendChild(n); });

    var main = el("div", "pv-main");
    view.current = el("section", "pv-current");
    view.current.setAttribute("aria-label", "Current slide");
    view.currentFrame = el("div", "pv-frame");
    view.current.appendChild(view.currentFrame);
    var pace = el("section", "pv-pace");
    pace.setAttribute("aria-label", "Clock and plan");
    view.elapsed = el("button", "pv-elapsed", "0:00");
    view.elapsed.type = "button";
    view.elapsed.title = "Time of the talk: the clock starts on the first advance (counting the plan's time up to that slide) or T; click or 0 resets it, Q pauses";
    view.elapsed.addEventListener("click", function (event) { event.stopPropagation(); resetClock(); view.elapsed.blur(); });
    view.clockState = el("span", "pv-clock-state");
    view.status = el("div", "pv-status");
    view.section = el("div", "pv-section");
    view.slot = el("div", "pv-slot");
    var top = el("div", "pv-pace-top");
    top.appendChild(view.elapsed);
    top.appendChild(view.clockState);
    [top, view.status, view.section, view.slot].forEach(function (n) { pace.appendChild(n); });
    main.appendChild(view.current);
    main.appendChild(pace);

    var side = el("div", "pv-side");
    view.next = el("section", "pv-next");
    view.next.appendChild(el("h2", "pv-label", "Next"));
    view.nextFrame = el("div", "pv-frame");
    view.next.appendChild(view.nextFrame);
    view.nextNotes = el("p", "pv-next-notes");
    view.next.appendChild(view.nextNotes);
    view.notes = el("section", "pv-notes");
    var head = el("div", "pv-notes-head");
    head.appendChild(el("h2", "pv-label", "Notes"));
    view.more = el("span", "pv-more", "more below \u2193");
    view.more.hidden = true;
    head.appendChild(view.more);
    head.appendChild(button("A\u2212", function () { notesSize(-2); }, "Smaller notes (-)", "pv-size"));
    head.appendChild(button("A+", function () { notesSize(2); }, "Larger notes (+)", "pv-size"));
    view.notes.appendChild(head);
    view.notesBody = el("div", "pv-notes-body");
    view.notesBody.tabIndex = 0;
    view.notesBody.addEventListener("scroll", moreBelow);
    view.notes.appendChild(view.notesBody);
    side.appendChild(view.next);
    side.appendChild(view.notes);

    view.banner = el("div", "pv-banner");
    view.banner.setAttribute("role", "alert");
    view.banner.hidden = true;
    view.banner.appendChild(el("span", "", "Note changed \u2014 reload when ready (the clock and the recording are kept)"));
    view.banner.appendChild(button("Reload", function () { remember(); window.location.reload(); }, "Reload the changed deck now"));

    [bar, main, side, view.banner].forEach(function (n) { root.appendChild(n); });
    document.body.appendChild(root);
    var size = Number((storage("localStorage") || { getItem: function () { return null; } }).getItem(sizeKey));
    if (size) { root.style.setProperty("--pv-notes-size", size + "px"); }
    window.setInterval(tick, 250);
  }
  function copyOf(index) {
    var copy = slides[index].cloneNode(true);
    copy.querySelectorAll("video").forEach(function (video) { video.removeAttribute("data-autoplay"); video.muted = true; video.preload = "none"; });
    copy.removeAttribute("id");
    copy.classList.add("current");
    copy.setAttribute("aria-hidden", "true");
    return copy;
  }
  /* each slide preview as large as its box allows, at 16:9 */
  function fitFrames() {
    if (!view.currentFrame) { return; }
    var main = view.current.parentNode;
    var side = view.next.parentNode;
    if (window.matchMedia && window.matchMedia("(max-width: 700px)").matches) {  // a phone: one column
      size(view.currentFrame, main.clientWidth);
      size(view.nextFrame, side.clientWidth * 0.6);
      return;
    }
    var pace = main.lastChild;  // the clock and the plan need their lines' height under the slide
    var paceHeight = pace.lastChild.offsetTop + pace.lastChild.offsetHeight - pace.firstChild.offsetTop;
    size(view.currentFrame, Math.min(main.clientWidth, Math.max(0, main.clientHeight - paceHeight - 10) * 16 / 9));
    size(view.nextFrame, Math.min(side.clientWidth, side.clientHeight * 0.34 * 16 / 9));
    moreBelow();
  }
  function size(frame, width) {
    width = Math.floor(width);
    frame.style.width = width + "px";
    frame.style.height = Math.floor(width * 9 / 16) + "px";
    frame.style.setProperty("--pv-scale", String(width / 1280));
  }
  function firstLine(index) {
    var notes = index < slides.length ? slides[index].querySelector(".notes") : null;
    var text = notes ? notes.textContent.replace(/\s+/g, " ").trim() : "";
    if (!text) { return ""; }
    var sentence = /^.*?[.!?](?=\s|$)/.exec(text);
    text = sentence ? sentence[0] : text;
    return text.length > 140 ? text.slice(0, 139).replace(/\s+\S*$/, "") + "\u2026" : text;
  }
  function presenterShow(previous) {
    if (!view.currentFrame) { return; }
    if (previous !== current) {
      account(previous);
      // the talk began on the slide just left: the clock starts with the time spent on it, at
      // most the plan's time up to here (the window may have been open long before the talk;
      // crediting the plan's time alone showed a speaker who rushed the title as on time)
      var at = planned(current);
      if (!started) { startClock(at && current > previous ? Math.min(at.start, Date.now() - shownAt) : 0); }
      shownAt = Date.now();
    }
    view.currentFrame.replaceChildren(copyOf(current));
    var steps = stepsOf(slides[current]);
    if (step < steps.length) {  // more of this slide's list to come: the next step is what comes next
      var upcoming = copyOf(current);
      revealIn(upcoming, step + 1);
      view.nextFrame.replaceChildren(upcoming);
      view.next.setAttribute("data-slide", String(current + 1));
      var item = slides[current].querySelector('.fragment[data-step="' + steps[step] + '"]');
      var what = item ? item.getAttribute("data-label") || item.textContent.replace(/\s+/g, " ").trim() : "";  // a code step: its lines
      var blocks = Array.prototype.slice.call(slides[current].querySelectorAll("pre[data-code-steps]"));
      if (item && item.classList.contains("code-step") && blocks.length > 1) {  // which block, where a slide has several
        what = "code block " + (blocks.indexOf(item.closest("pre")) + 1) + ", " + what;
      }
      view.nextNotes.textContent = "Next item (" + (step + 1) + " of " + steps.length + "): " + what;
      view.nextNotes.classList.remove("pv-none");
    } else {
      view.nextFrame.replaceChildren(current + 1 < slides.length ? copyOf(current + 1) : el("p", "pv-end", "End of the deck"));
      view.next.setAttribute("data-slide", String(current + 2));
      var line = firstLine(current + 1);
      view.nextNotes.textContent = current + 1 >= slides.length ? "" : line ? "Then say: " + line : "The next slide has no notes.";
      view.nextNotes.classList.toggle("pv-none", !line);
    }
    var notes = slides[current].querySelector(".notes");
    view.notesBody.innerHTML = notes ? notes.innerHTML : "<p class=\"pv-none\">No notes for this slide.</p>";
    view.notesBody.scrollTop = 0;
    view.position.textContent = "Slide " + (current + 1) + " / " + slides.length;
    fitFrames();
    remember();
    tick();
  }
  function planned(i) {
    var slide = plan.slides[i];
    if (!slide || plan.slides.length !== slides.length) { return null; }
    var end = typeof slide.end === "number" ? slide.end : i + 1 < plan.slides.length ? plan.slides[i + 1].start : plan.total;
    return { start: slide.start * 60000, end: end * 60000, section: slide.section };
  }
  function setStatus(node, state, text) {
    node.textContent = text;
    node.setAttribute("data-status", state);
  }
  function tick() {
    if (!view.elapsed) { return; }
    var ms = elapsed();
    view.elapsed.textContent = clock(ms);
    view.clockState.textContent = !started ? "starts on the next slide or T" : paused ? "paused (Q resumes)" : "";
    var now = new Date();
    view.clock.textContent = (now.getHours() < 10 ? "0" : "") + now.getHours() + ":" + (now.getMinutes() < 10 ? "0" : "") + now.getMinutes();
    var slide = planned(current);
    if (!slide) {
      setStatus(view.status, "none", "No plan for this deck");
      view.section.textContent = view.slot.textContent = "";
      return;
    }
    var left = slide.end - ms;
    if (!started) {
      setStatus(view.status, "waiting", clock(slide.end - slide.start, true) + " planned for this slide");
    } else if (left < 0) {
      setStatus(view.status, "behind", "behind " + clock(-left) + " \u00B7 past this slide's planned end");
    } else if (slide.start - ms > 30000) {
      setStatus(view.status, "ahead", "ahead " + clock(slide.start - ms) + " \u00B7 " + clock(left, true) + " left on this slide");
    } else {
      setStatus(view.status, "on-time", clock(left, true) + " left on this slide");
    }
    var section = plan.sections[slide.section];
    if (section) {
      var end = (section.start + section.minutes) * 60000;
      var sectionLeft = end - Math.max(ms, section.start * 60000);
      // the parts the talk gives: a hidden part (no slide in the deck) is not counted
      var given = plan.sections.filter(function (part) { return !part.hidden; });
      view.section.textContent = "Part " + (given.indexOf(section) + 1) + "/" + given.length + " \u00B7 " + section.title + " \u00B7 " +
        (end - ms >= 0 ? clock(sectionLeft, true) + " left of " + clock(section.minutes * 60000, true) : clock(ms - end) + " over its " + clock(section.minutes * 60000, true));
      view.section.setAttribute("data-status", end - ms >= 0 ? "on-time" : "behind");
    }
    var slot = plan.slot ? plan.slot * 60000 : plan.total * 60000;
    var name = plan.slot ? "Slot" : "Plan";
    view.slot.textContent = name + " \u00B7 " + (slot - ms >= 0 ? clock(slot - ms, true) + " left of " + clock(slot, true) : clock(ms - slot) + " over " + clock(slot, true));
    view.slot.setAttribute("data-status", slot - ms >= 0 ? "on-time" : "behind");
  }
  function startClock(credit) {
    if (started) { return; }
    started = true;
    paused = false;
    banked = credit || 0;
    since = mark = Date.now();
    syncButtons();
  }
  function resetClock() {
    account();
    started = false;
    paused = false;
    banked = 0;
    syncButtons();
  }
  function togglePause() {
    if (!started) { startClock(); return; }
    account();
    if (paused) {
      since = Date.now();
      paused = false;
    } else {
      banked = elapsed();
      paused = true;
    }
    syncButtons();
  }
  function toggleRecording() {
    account();
    if (recording) { recording = false; }
    else {
      spent = {};
      recording = true;
      if (!started) { startClock(); }
    }
    syncButtons();
  }
  function syncButtons() {
    if (!view.root) { return; }
    document.body.classList.toggle("pv-paused", started && paused);
    document.body.classList.toggle("pv-waiting", !started);
    document.body.classList.toggle("pv-recording", recording);
    view.pause.textContent = started && paused ? "Resume" : "Pause";
    view.record.textContent = recording ? "Stop recording" : "Record rehearsal";
    view.save.disabled = !recording && !Object.keys(spent).length;  // saving stops a recording first
    remember();
    tick();
  }
  function saveTimings() {
    if (recording) { toggleRecording(); }
    var seen = {};
    var data = {
      format: "confnotes.rehearsal/1",
      title: document.title.replace(/^Presenter · /, ""),
      recorded: new Date().toISOString(),
      slides: slides.map(function (slide, i) {
        var info = describe(i);
        var key = info.section + "\u0000" + info.title;
        seen[key] = (seen[key] || 0) + 1;
        return { slide: i + 1, section: info.section, title: info.title, occurrence: seen[key], seconds: Math.round((spent[ids[i]] || 0) / 100) / 10 };
      })
    };
    var blob = new Blob([JSON.stringify(data, null, 2) + "\n"], { type: "application/json" });
    var link = el("a");
    link.href = URL.createObjectURL(blob);
    var stem = decodeURIComponent(window.location.pathname.split("/").pop() || "talk").replace(/\.slides\.html$|\.html$/, "");
    link.download = stem + ".timings.json";
    document.body.appendChild(link);
    link.click();
    link.remove();
  }
  function notesSize(step) {
    var now = parseFloat(window.getComputedStyle(view.notesBody).fontSize) || 20;
    var next = Math.max(12, Math.min(48, Math.round(now + step)));
    view.root.style.setProperty("--pv-notes-size", next + "px");
    var local = storage("localStorage");
    try { if (local) { local.setItem(sizeKey, String(next)); } } catch (e) { /* not remembered, still applied */ }
    moreBelow();
  }
  /* long notes scroll: say so while there is more below */
  function moreBelow() {
    var body = view.notesBody;
    if (body) { view.more.hidden = body.scrollTop + body.clientHeight >= body.scrollHeight - 2; }
  }
  function scrollNotes(lines) {
    var line = parseFloat(window.getComputedStyle(view.notesBody).lineHeight) || 28;
    view.notesBody.scrollTop += lines * line;
    moreBelow();
  }
  function toggleHelp(on) {
    help.hidden = typeof on === "boolean" ? !on : !help.hidden;
  }
  /* under confnotes serve a saved note reloads every page; a presenter that is recording waits */
  window.addEventListener("confnotes:reload", function (event) {
    if (!presenter) { return; }
    remember();
    if (recording) {
      event.preventDefault();
      view.banner.hidden = false;
    }
  });

  /* ------------------------------------------------------------ keys */

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) { return; }
    var key = event.key;
    var overview = document.body.classList.contains("overview");
    if (/^[0-9]$/.test(key) && (typed || key !== "0")) {
      setTyped((typed + key).slice(-4));
    } else if (key === "Enter" && typed) {
      var number = parseInt(typed, 10);
      setTyped("");
      if (number >= 1) { show(number - 1); }
      if (overview) { toggleOverview(false); }
    } else if (key === "Escape" && typed) {
      setTyped("");
    } else if (presenter && (key === "ArrowDown" || key === "j" || key === "J")) {
      scrollNotes(3);
    } else if (presenter && (key === "ArrowUp" || key === "k" || key === "K")) {
      scrollNotes(-3);
    } else if (key === "ArrowRight" || key === "ArrowDown" || key === "PageDown" || key === "n" || key === "N" ||
        (key === " " && !event.shiftKey)) {
      advance(1);
    } else if (key === "ArrowLeft" || key === "ArrowUp" || key === "PageUp" ||
        (key === " " && event.shiftKey)) {
      advance(-1);
    } else if (key === "Home") {
      show(0);
    } else if (key === "End") {
      show(slides.length - 1);
    } else if (key === "b" || key === "B" || key === ".") {
      setScreen(screen === "black" ? "" : "black");
    } else if (key === "w" || key === "W") {
      setScreen(screen === "white" ? "" : "white");
    } else if (presenter && key === "0") {
      resetClock();
    } else if (presenter && (key === "t" || key === "T")) {
      startClock();
    } else if (presenter && (key === "q" || key === "Q")) {
      togglePause();
    } else if (presenter && (key === "r" || key === "R")) {
      toggleRecording();
    } else if (presenter && (key === "+" || key === "=")) {
      notesSize(2);
    } else if (presenter && (key === "-" || key === "_")) {
      notesSize(-2);
    } else if (!presenter && (key === "p" || key === "P")) {
      openPresenter();
    } else if (!presenter && (key === "s" || key === "S")) {
      panel.hidden = !panel.hidden;
    } else if (!presenter && (key === "o" || key === "O")) {
      toggleOverview(!overview);
    } else if (key === "Escape" && !help.hidden) {
      toggleHelp(false);
    } else if (key === "Escape" && screen) {
      setScreen("");
    } else if (key === "Escape" || (key === "Enter" && overview)) {
      toggleOverview(false);
    } else if (key === "?") {
      toggleHelp();
    } else if (key === "f" || key === "F") {
      if (document.fullscreenElement) { document.exitFullscreen(); }
      else if (document.documentElement.requestFullscreen) { document.documentElement.requestFullscreen(); }
    } else {
      return;
    }
    event.preventDefault();
  });

  /* ------------------------------------------------------------ click, tap and swipe */

  var quiet = "a, button, input, select, textarea, summary, label, .notes-panel, .deck-controls, .pv-bar, .pv-notes, .pv-pace, .pv-banner";
  document.addEventListener("click", function (event) {
    if (event.button !== 0 || event.defaultPrevented) { return; }
    var target = event.target instanceof Element ? event.target : null;
    if (!target) { return; }
    if (!help.hidden) { toggleHelp(false); return; }
    if (document.body.classList.contains("overview")) {
      var picked = target.closest("main.slides > .slide");
      if (picked) { show(slides.indexOf(picked)); toggleOverview(false); }
      return;
    }
    if (target.closest(quiet)) { return; }
    var selection = window.getSelection ? String(window.getSelection()) : "";
    if (selection) { return; }
    if (presenter) {
      if (target.closest(".pv-next")) { advance(1); }
      else if (target.closest(".pv-current")) { advance(event.shiftKey ? -1 : 1); }
      return;
    }
    if (screen) { setScreen(""); return; }
    advance(event.shiftKey ? -1 : 1);
  });
  var touch = null;
  document.addEventListener("touchstart", function (event) {
    touch = event.touches.length === 1 ? { x: event.touches[0].clientX, y: event.touches[0].clientY } : null;
  }, { passive: true });
  document.addEventListener("touchend", function (event) {
    if (!touch || event.changedTouches.length !== 1 || document.body.classList.contains("overview")) { touch = null; return; }
    var dx = event.changedTouches[0].clientX - touch.x;
    var dy = event.changedTouches[0].clientY - touch.y;
    touch = null;
    if (Math.abs(dx) >= 40 && Math.abs(dx) > 1.5 * Math.abs(dy)) { advance(dx < 0 ? 1 : -1); }
  }, { passive: true });

  window.addEventListener("hashchange", function () { if (fromHash() !== current) { show(fromHash()); } });
  document.body.classList.add("fragments");  // without this script, every item shows
  window.addEventListener("resize", rescale);
  var restored = null;
  if (presenter) {
    restored = restore();
    buildPresenter();
  }
  current = fromHash();
  if (restored) {  // after a reload: the same slide, even if slides were added before it
    var again = ids.indexOf(restored);
    if (again >= 0) { current = again; }
  }
  rescale();
  show(current, true);
  if (presenter) { syncButtons(); }
})();
