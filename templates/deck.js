/* confnotes deck: keyboard navigation, #N deep links, presenter notes (S), overview (O). No network. */
(function () {
  "use strict";
  var slides = Array.prototype.slice.call(document.querySelectorAll(".slide"));
  var panel = document.querySelector(".notes-panel");
  var panelBody = document.querySelector(".notes-panel-body");
  var help = document.querySelector(".help");
  var current = 0;

  function clamp(i) { return Math.max(0, Math.min(slides.length - 1, i)); }
  function fromHash() {
    var match = /^#(\d+)$/.exec(window.location.hash);
    return match ? clamp(parseInt(match[1], 10) - 1) : 0;
  }
  function rescale() {
    var scale = Math.min(window.innerWidth / 1280, window.innerHeight / 720);
    document.documentElement.style.setProperty("--scale", String(scale));
  }
  function show(index) {
    current = clamp(index);
    slides.forEach(function (slide, i) {
      var on = i === current;
      slide.classList.toggle("current", on);
      slide.setAttribute("aria-hidden", on ? "false" : "true");
    });
    var hash = "#" + (current + 1);
    if (window.location.hash !== hash) { window.history.replaceState(null, "", hash); }
    var notes = slides[current].querySelector(".notes");
    panelBody.innerHTML = notes ? notes.innerHTML : "<p><em>No notes for this slide.</em></p>";
    document.body.setAttribute("data-slide", String(current + 1));
  }
  function toggleOverview(on) {
    document.body.classList.toggle("overview", on);
    if (!on) { slides[current].scrollIntoView({ block: "nearest" }); }
  }

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) { return; }
    var key = event.key;
    var overview = document.body.classList.contains("overview");
    if (key === "ArrowRight" || key === "ArrowDown" || key === "PageDown" || key === "n" ||
        (key === " " && !event.shiftKey)) {
      show(current + 1);
    } else if (key === "ArrowLeft" || key === "ArrowUp" || key === "PageUp" || key === "p" ||
        (key === " " && event.shiftKey)) {
      show(current - 1);
    } else if (key === "Home") {
      show(0);
    } else if (key === "End") {
      show(slides.length - 1);
    } else if (key === "s" || key === "S") {
      panel.hidden = !panel.hidden;
    } else if (key === "o" || key === "O") {
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
  rescale();
  show(fromHash());
})();
