// The sheet form posts itself (hx-post on the form); this file adds what htmx cannot
// say in attributes: which field changed, Enter in an "add" row, focus kept across
// swaps, and the page title after a rename.
(function () {
  "use strict";
  var lastFocus = null;

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
  // runs (hx-disabled-elt), which drops the focus to the page before any swap. A dot has
  // no id (it would weigh on every row): its name and value find it again.
  document.addEventListener("focusin", function (event) {
    var field = event.target;
    if (!field) return;
    if (field.id) {
      lastFocus = "#" + CSS.escape(field.id);
    } else if (field.type === "radio" && field.name && field.form && field.form.id) {
      lastFocus = "#" + CSS.escape(field.form.id) + ' input[name="' + CSS.escape(field.name)
        + '"][value="' + CSS.escape(field.value) + '"]';
    }
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

  // An edit response sends only what changed since the page was drawn, which never
  // includes a refusal shown by an earlier response: clear those before it lands, and any
  // refusal that still holds comes back in it. A refused field then shows the stored value
  // again, not the refused text: without its message, the page would say it was saved.
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (!event.detail.elt || event.detail.elt.id !== "sheet-form") return;
    document.querySelectorAll("#sheet-form .error[role=alert]").forEach(function (message) {
      message.remove();
    });
    document.querySelectorAll('#sheet-form [aria-invalid="true"]').forEach(function (field) {
      field.removeAttribute("aria-invalid");
      field.removeAttribute("aria-describedby");
      if (field.dataset.stored !== undefined && field !== document.activeElement) {
        field.value = field.dataset.stored;
        delete field.dataset.stored;
      }
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
    if (!lastFocus) return;
    var active = document.activeElement;
    if (active && active !== document.body) return;
    var again = document.querySelector(lastFocus);
    if (again) again.focus({ preventScroll: true });
  });
})();
