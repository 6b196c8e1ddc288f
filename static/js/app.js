// Behaviour every page shares, kept out of the templates: the Content Security Policy
// allows no inline script and no on*="" handlers.
(function () {
  "use strict";
  // A read-only link box (an invitation link) selects its whole text when focused, ready
  // to copy.
  document.addEventListener("focusin", function (event) {
    var field = event.target;
    if (field && field.matches && field.matches("input.link-field[readonly]")) field.select();
  });

  // An error page's Back button: shown only where there is a page to go back to.
  function showBackButtons() {
    if (window.history.length < 2) return;
    document.querySelectorAll("[data-history-back]").forEach(function (button) {
      button.hidden = false;
    });
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-history-back]");
    if (button) window.history.back();
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", showBackButtons);
  } else {
    showBackButtons();
  }
})();
