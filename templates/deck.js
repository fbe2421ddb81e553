/* confnotes deck: keyboard navigation, #N deep links, notes (S), overview (O) and a presenter view (P)
   in a second window that the audience window follows. Works offline from the one file: no network. */
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
  var self = String(Math.random()).slice(2);
  var channelName = "confnotes-deck:" + window.location.pathname;
  var channel = null;
  var presenterWindow = null;

  function clamp(i) { return Math.max(0, Math.min(slides.length - 1, i)); }
  function fromHash() {
    var match = /^#(?:presenter:)?(\d+)$/.exec(window.location.hash);
    return match ? clamp(parseInt(match[1], 10) - 1) : 0;
  }
  function rescale() {
    var scale = Math.min(window.innerWidth / 1280, window.innerHeight / 720);
    document.documentElement.style.setProperty("--scale", String(scale));
    if (presenter) { fitFrames(); }
  }

  /* ------------------------------------------------------------ keeping windows in step */

  function send(index) {
    var message = { kind: "confnotes-go", index: index, source: self };
    if (channel) { channel.postMessage(message); }
    else {
      try { window.localStorage.setItem(channelName, JSON.stringify({ index: index, source: self, t: Date.now() })); }
      catch (e) { /* storage may be off: the direct link below still works */ }
    }
    var other = presenter ? window.opener : presenterWindow;
    if (other && !other.closed) {
      try { other.postMessage(message, "*"); } catch (e) { /* closed meanwhile */ }
    }
  }
  function receive(message) {
    if (!message || message.kind !== "confnotes-go" || message.source === self) { return; }
    var index = clamp(Number(message.index));
    if (index !== current) { show(index, true); }
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
  window.addEventListener("message", function (event) {
    if (event.source && (event.source === window.opener || event.source === presenterWindow)) { receive(event.data); }
  });

  /* ------------------------------------------------------------ showing a slide */

  function show(index, remote) {
    var previous = current;
    current = clamp(index);
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
    if (presenter) { presenterShow(previous); }
    if (!remote && previous !== current) { send(current); }
  }
  function toggleOverview(on) {
    document.body.classList.toggle("overview", on);
    if (!on) { slides[current].scrollIntoView({ block: "nearest" }); }
  }
  function openPresenter() {
    var url = window.location.href.split("#")[0] + "#presenter:" + (current + 1);
    presenterWindow = window.open(url, "confnotes-presenter", "popup,width=1280,height=800");
  }

  /* ------------------------------------------------------------ the presenter view */

  var view = {};
  var started = 0;        // Date.now() when the clock last (re)started
  var banked = 0;         // milliseconds counted before the last pause
  var paused = false;
  var recording = false;
  var spent = [];         // rehearsal: milliseconds per slide
  var slideSince = 0;     // rehearsal: when the current slide's time started

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text) { node.textContent = text; }
    return node;
  }
  function button(label, action, title) {
    var node = el("button", "pv-button", label);
    node.type = "button";
    node.title = title;
    node.addEventListener("click", function () { action(); node.blur(); });
    return node;
  }
  function clock(ms) {
    var seconds = Math.max(0, Math.round(ms / 1000));
    var minutes = Math.floor(seconds / 60);
    var rest = seconds % 60;
    return minutes + ":" + (rest < 10 ? "0" : "") + rest;
  }
  function elapsed() { return banked + (paused ? 0 : Date.now() - started); }

  function buildPresenter() {
    document.body.classList.add("presenter");
    document.title = "Presenter · " + document.title;
    var root = el("div", "presenter-view");
    root.setAttribute("aria-label", "Presenter view");
    var bar = el("header", "pv-bar");
    view.elapsed = el("span", "pv-elapsed", "0:00");
    view.elapsed.title = "Time since the presenter view opened (Q pauses)";
    view.clock = el("span", "pv-clock");
    view.status = el("span", "pv-status", "on time");
    view.section = el("span", "pv-section");
    view.position = el("span", "pv-position");
    view.pause = button("Pause", togglePause, "Pause the clock for questions (Q)");
    view.record = button("Record rehearsal", toggleRecording, "Record the time spent on each slide (R)");
    view.save = button("Save timings", saveTimings, "Download the rehearsal's timings for confnotes time --rehearsal");
    view.save.disabled = true;
    [view.elapsed, view.status, view.section, view.position, view.clock, view.pause, view.record, view.save].forEach(function (n) { bar.appendChild(n); });
    view.current = el("section", "pv-current");
    view.current.setAttribute("aria-label", "Current slide");
    view.currentFrame = el("div", "pv-frame");
    view.current.appendChild(view.currentFrame);
    var side = el("div", "pv-side");
    view.next = el("section", "pv-next");
    view.next.appendChild(el("h2", "pv-label", "Next"));
    view.nextFrame = el("div", "pv-frame");
    view.next.appendChild(view.nextFrame);
    view.notes = el("section", "pv-notes");
    view.notes.appendChild(el("h2", "pv-label", "Notes"));
    view.notesBody = el("div", "pv-notes-body");
    view.notes.appendChild(view.notesBody);
    side.appendChild(view.next);
    side.appendChild(view.notes);
    root.appendChild(bar);
    root.appendChild(view.current);
    root.appendChild(side);
    document.body.appendChild(root);
    started = Date.now();
    window.setInterval(tick, 250);
  }
  function copyOf(index) {
    var copy = slides[index].cloneNode(true);
    copy.removeAttribute("id");
    copy.classList.add("current");
    copy.setAttribute("aria-hidden", "true");
    return copy;
  }
  function fitFrames() {
    [view.currentFrame, view.nextFrame].forEach(function (frame) {
      if (frame) { frame.style.setProperty("--pv-scale", String(frame.clientWidth / 1280)); }
    });
  }
  function presenterShow(previous) {
    if (!view.currentFrame) { return; }
    if (recording && previous !== current) {
      var now = Date.now();
      if (!paused) { spent[previous] = (spent[previous] || 0) + now - slideSince; }
      slideSince = now;
    }
    view.currentFrame.replaceChildren(copyOf(current));
    view.nextFrame.replaceChildren(current + 1 < slides.length ? copyOf(current + 1) : el("p", "pv-end", "End of the deck"));
    view.next.setAttribute("data-slide", String(current + 2));
    var notes = slides[current].querySelector(".notes");
    view.notesBody.innerHTML = notes ? notes.innerHTML : "<p class=\"pv-none\">No notes for this slide.</p>";
    view.position.textContent = (current + 1) + " / " + slides.length;
    fitFrames();
    tick();
  }
  function tick() {
    var ms = elapsed();
    view.elapsed.textContent = clock(ms);
    var now = new Date();
    view.clock.textContent = (now.getHours() < 10 ? "0" : "") + now.getHours() + ":" + (now.getMinutes() < 10 ? "0" : "") + now.getMinutes();
    var slide = plan.slides[current];
    if (!slide) { return; }
    var section = plan.sections[slide.section];
    var ahead = slide.start * 60000 - ms;   // > 0: ahead of the plan
    var state = Math.abs(ahead) <= 30000 ? "on time" : ahead > 0 ? "ahead " + clock(ahead) : "behind " + clock(-ahead);
    view.status.textContent = state;
    view.status.setAttribute("data-status", state.split(" ")[0] === "on" ? "on-time" : state.split(" ")[0]);
    if (section) {
      var left = (section.start + section.minutes) * 60000 - ms;
      view.section.textContent = (slide.section + 1) + "/" + plan.sections.length + " " + section.title + " · " +
        clock(section.minutes * 60000) + " planned · " + (left >= 0 ? clock(left) + " left" : clock(-left) + " over");
    }
  }
  function togglePause() {
    if (paused) {
      started = Date.now();
      slideSince = started;
      paused = false;
    } else {
      banked = elapsed();
      if (recording) { spent[current] = (spent[current] || 0) + Date.now() - slideSince; }
      paused = true;
    }
    document.body.classList.toggle("pv-paused", paused);
    view.pause.textContent = paused ? "Resume" : "Pause";
    tick();
  }
  function toggleRecording() {
    if (recording) {
      if (!paused) { spent[current] = (spent[current] || 0) + Date.now() - slideSince; }
      recording = false;
    } else {
      spent = slides.map(function () { return 0; });
      slideSince = Date.now();
      recording = true;
    }
    document.body.classList.toggle("pv-recording", recording);
    view.record.textContent = recording ? "Stop recording" : "Record rehearsal";
    view.save.disabled = !spent.length;  // saving stops a recording first
  }
  function saveTimings() {
    if (recording) { toggleRecording(); }
    var data = {
      format: "confnotes.rehearsal/1",
      title: document.title.replace(/^Presenter · /, ""),
      recorded: new Date().toISOString(),
      slides: slides.map(function (slide, i) {
        var title = slide.querySelector(".slide-title");
        return { slide: i + 1, title: title ? title.textContent.trim() : "", seconds: Math.round((spent[i] || 0) / 100) / 10 };
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

  /* ------------------------------------------------------------ keys */

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) { return; }
    var key = event.key;
    var overview = document.body.classList.contains("overview");
    if (key === "ArrowRight" || key === "ArrowDown" || key === "PageDown" || key === "n" ||
        (key === " " && !event.shiftKey)) {
      show(current + 1);
    } else if (key === "ArrowLeft" || key === "ArrowUp" || key === "PageUp" ||
        (key === " " && event.shiftKey)) {
      show(current - 1);
    } else if (key === "Home") {
      show(0);
    } else if (key === "End") {
      show(slides.length - 1);
    } else if (presenter && (key === "q" || key === "Q")) {
      togglePause();
    } else if (presenter && (key === "r" || key === "R")) {
      toggleRecording();
    } else if (!presenter && (key === "p" || key === "P")) {
      openPresenter();
    } else if (!presenter && (key === "s" || key === "S")) {
      panel.hidden = !panel.hidden;
    } else if (!presenter && (key === "o" || key === "O")) {
      toggleOverview(!overview);
    } else if (key === "Escape" || (key === "Enter" && overview)) {
      toggleOverview(false);
    } else if (key === "?") {
      help.hidden = !help.hidden;
    } else if (key === "f" || key === "F") {
      if (document.fullscreenElement) { document.exitFullscreen(); }
      else if (document.documentElement.requestFullscreen) { document.documentElement.requestFullscreen(); }
    } else {
      return;
    }
    event.preventDefault();
  });
  slides.forEach(function (slide, i) {
    slide.addEventListener("click", function () {
      if (document.body.classList.contains("overview")) { show(i); toggleOverview(false); }
    });
  });
  window.addEventListener("hashchange", function () { show(fromHash()); });
  window.addEventListener("resize", rescale);
  if (presenter) { buildPresenter(); }
  rescale();
  current = fromHash();
  show(current, true);
})();
