// The sheet form posts itself (hx-post on the form); this file adds what htmx cannot
// say in attributes: which field changed, Enter in an "add" row, focus kept across
// swaps, and the page title after a rename.
(function () {
  "use strict";
  var lastFocusId = null;

  document.addEventListener("htmx:configRequest", function (event) {
    var form = event.detail.elt;
    if (!form || form.id !== "sheet-form") return;
    var trigger = event.detail.triggeringEvent;
    if (!trigger || trigger.type !== "change") return;
    var field = trigger.target;
    // An "add" row posts only through its own button, never on a change of its choice.
    if (!field.name || field.closest(".add-row")) {
      event.preventDefault();
      return;
    }
    var name = field.name;
    event.detail.parameters.only = name;
    // A checkbox that was cleared sends only its hidden "no".
    if (field.type === "checkbox") {
      event.detail.parameters[name] = field.checked ? field.value : "no";
    } else {
      event.detail.parameters[name] = field.value;
    }
  });

  // Enter in an "add" row clicks its Add button rather than saving the whole form.
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Enter") return;
    var row = event.target.closest && event.target.closest(".add-row");
    if (!row || event.target.tagName === "BUTTON") return;
    var button = row.querySelector("button[type=submit]");
    if (button) {
      event.preventDefault();
      button.click();
    }
  });

  // Remember the last control focused: a clicked button is disabled while its request
  // runs (hx-disabled-elt), which drops the focus to the page before any swap.
  document.addEventListener("focusin", function (event) {
    if (event.target && event.target.id) lastFocusId = event.target.id;
  });

  // After an "add" row's item was added (no refusal came back), empty its text boxes so
  // a second click does not add the same item again.
  document.addEventListener("htmx:afterRequest", function (event) {
    var submitter = event.detail.requestConfig && event.detail.requestConfig.triggeringEvent
      && event.detail.requestConfig.triggeringEvent.submitter;
    if (!submitter || !event.detail.successful) return;
    var row = submitter.closest(".add-row");
    var body = event.detail.xhr ? event.detail.xhr.responseText : "";
    if (!row || body.indexOf('role="alert"') !== -1) return;
    row.querySelectorAll("input[type=text], input:not([type])").forEach(function (input) {
      input.value = "";
    });
  });

  document.addEventListener("htmx:afterSettle", function () {
    var title = document.getElementById("sheet-title");
    if (title && title.dataset.documentTitle) document.title = title.dataset.documentTitle;
    // The review forms name the version they act on: the one the page now shows.
    var version = document.getElementById("sheet-version");
    if (version) {
      document.querySelectorAll(".sheet-version-copy").forEach(function (input) {
        input.value = version.value;
      });
    }
    if (!lastFocusId) return;
    var active = document.activeElement;
    if (active && active !== document.body) return;
    var again = document.getElementById(lastFocusId);
    if (again) again.focus({ preventScroll: true });
  });
})();
