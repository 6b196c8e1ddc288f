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
})();
