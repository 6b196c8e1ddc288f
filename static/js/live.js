// Live pages (sheets/live): a sheet page and a campaign page each hold one event stream
// (htmx's SSE extension, sse-connect). Its events carry ids only; elements that wait for
// them fetch through the usual views (hx-trigger="sse:roll", "sse:sheet").
// While the stream is open, the roll log's 2-second poll stands down: the stream's "roll"
// event fetches instead. When the stream fails, the poll takes over until it is back.
(function () {
  "use strict";
  function set(event, open) {
    var source = event.target;
    if (!source || !source.setAttribute) return;
    if (open) source.setAttribute("data-live", "open");
    else source.removeAttribute("data-live");
  }
  document.addEventListener("htmx:sseOpen", function (event) { set(event, true); });
  document.addEventListener("htmx:sseError", function (event) { set(event, false); });
  document.addEventListener("htmx:sseClose", function (event) { set(event, false); });

  // A poll fired by its timer has no triggering event; one sent by the stream, or by a roll
  // made on this page ("rolled"), has one and always goes.
  document.addEventListener("htmx:confirm", function (event) {
    if (event.detail.triggeringEvent) return;
    var elt = event.detail.elt;
    if (elt && elt.closest && elt.closest('[data-live="open"]')) event.preventDefault();
  });
})();
