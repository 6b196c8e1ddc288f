// The sheet form posts itself (hx-post on the form); this file adds what htmx cannot
// say in attributes: which field changed, Enter in an "add" row, focus kept across
// swaps, and the page title after a rename.
(function () {
  "use strict";
  var lastFocus = null;

  // Edits the server has not confirmed yet, by what they change ("field:<name>", or
  // "button:<name>=<value>" for a button). The page changes a field before the server
  // answers, so an edit counts as saved only once an answer carries the sheet's version,
  // as every edit answer does (a refusal or a conflict included). Anything else (no
  // connection, a server error, a login page after the session ended) keeps the edit
  // marked "Not saved" beside its field, with a retry, until the server takes it.
  var pending = new Map();
  var sequence = 0;

  function editKey(trigger) {
    if (trigger.type === "change") return "field:" + trigger.target.name;
    var button = trigger.submitter;
    if (button && button.name) return "button:" + button.name + "=" + button.value;
    return "button:save=all";
  }

  document.addEventListener("htmx:configRequest", function (event) {
    var form = event.detail.elt;
    if (!form || form.id !== "sheet-form") return;
    var trigger = event.detail.triggeringEvent;
    if (!trigger) return;
    if (trigger.type === "change") {
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
    } else if (trigger.type !== "submit") {
      return;
    }
    var key = editKey(trigger);
    var edit = pending.get(key) || { key: key };
    edit.seq = ++sequence;
    edit.sent = true;
    if (trigger.type === "change") {
      edit.control = trigger.target;
      edit.name = trigger.target.name;
      edit.value = trigger.target.value;
      edit.checked = trigger.target.checked;
    } else {
      edit.button = trigger.submitter || null;
    }
    pending.set(key, edit);
    event.detail.datapadEdit = { key: key, seq: edit.seq };
  });

  function answeredWithSheet(detail) {
    var xhr = detail.xhr;
    return Boolean(detail.successful && xhr && xhr.status >= 200 && xhr.status < 300
      && xhr.responseText.indexOf('id="sheet-version"') !== -1);
  }

  function whyNotSaved(xhr) {
    if (!navigator.onLine || !xhr || xhr.status === 0) {
      return "no connection. It is sent again when the connection returns.";
    }
    if (xhr.status >= 500) return "the server failed (error " + xhr.status + "). Try again.";
    var again = " Log in again in another tab, then retry.";
    if (xhr.status >= 400) {
      return "the server refused it (error " + xhr.status + "): your session may have ended." + again;
    }
    return "the server did not take it: you may have been logged out." + again;
  }

  document.addEventListener("htmx:afterRequest", function (event) {
    var config = event.detail.requestConfig;
    var sent = config && config.datapadEdit;
    if (!sent) return;
    var edit = pending.get(sent.key);
    if (!edit || edit.seq !== sent.seq) return;  // a newer change of it is on its way
    edit.sent = false;
    if (answeredWithSheet(event.detail)) {
      pending.delete(sent.key);
    } else {
      edit.reason = whyNotSaved(event.detail.xhr);
    }
    drawUnsaved();
  });

  function controlOf(edit) {
    var form = document.getElementById("sheet-form");
    if (!form || !edit.name) return null;
    if (edit.control && edit.control.isConnected) return edit.control;
    var selector = '[name="' + CSS.escape(edit.name) + '"]';
    var candidates = form.querySelectorAll(selector + ":not([type=hidden])");
    for (var i = 0; i < candidates.length; i++) {
      var candidate = candidates[i];
      if (candidate.type !== "radio" || candidate.value === edit.value) {
        // The row was redrawn from what is stored: show the unsaved value again.
        if (candidate.type === "radio" || candidate.type === "checkbox") {
          candidate.checked = candidate.type === "radio" ? true : edit.checked;
        } else {
          candidate.value = edit.value;
        }
        edit.control = candidate;
        return candidate;
      }
    }
    return null;
  }

  function placeOf(edit) {
    var control = edit.name ? controlOf(edit) : edit.button;
    if (!control || !control.isConnected) {
      if (!edit.button) return null;
      control = document.querySelector('#sheet-form button[name="' + CSS.escape(edit.button.name)
        + '"][value="' + CSS.escape(edit.button.value) + '"]');
      if (!control) return null;
      edit.button = control;
    }
    return control.closest(".trait, .field, li, p, fieldset, tr") || control.parentElement;
  }

  // Draw every unsaved edit's note beside its field, and one line above the sheet.
  function drawUnsaved() {
    document.querySelectorAll(".unsaved-note").forEach(function (note) { note.remove(); });
    document.querySelectorAll(".unsaved").forEach(function (row) {
      row.classList.remove("unsaved");
    });
    var failed = [];
    pending.forEach(function (edit) { if (!edit.sent && edit.reason) failed.push(edit); });
    failed.forEach(function (edit) {
      var place = placeOf(edit);
      if (!place) return;
      place.classList.add("unsaved");
      var note = document.createElement("span");
      note.className = "unsaved-note";
      note.setAttribute("role", "alert");
      var strong = document.createElement("strong");
      strong.textContent = "Not saved";
      note.appendChild(strong);
      note.appendChild(document.createTextNode(": " + edit.reason + " "));
      var retry = document.createElement("button");
      retry.type = "button";
      retry.className = "retry";
      retry.textContent = "Retry";
      retry.dataset.retry = edit.key;
      note.appendChild(retry);
      place.appendChild(note);
    });
    var summary = document.getElementById("unsaved-summary");
    if (!failed.length) {
      if (summary) summary.remove();
      return;
    }
    var sheet = document.getElementById("sheet");
    if (!sheet) return;
    if (!summary) {
      summary = document.createElement("div");
      summary.id = "unsaved-summary";
      summary.setAttribute("role", "status");
      sheet.insertBefore(summary, document.getElementById("sheet-form"));
    }
    summary.textContent = failed.length === 1 ? "1 change is not saved yet. "
      : failed.length + " changes are not saved yet. ";
    var all = document.createElement("button");
    all.type = "button";
    all.className = "retry";
    all.dataset.retry = "*";
    all.textContent = failed.length === 1 ? "Retry" : "Retry all";
    summary.appendChild(all);
  }

  function resend(edit) {
    if (edit.sent) return;
    var form = document.getElementById("sheet-form");
    if (!form) return;
    if (edit.name) {
      var control = controlOf(edit);
      if (control) control.dispatchEvent(new Event("change", { bubbles: true }));
    } else if (placeOf(edit) && edit.button) {
      form.requestSubmit(edit.button);
    } else if (edit.key === "button:save=all") {
      form.requestSubmit(form.querySelector('button[name="save"][value="all"]'));
    }
  }

  function resendAll() {
    Array.from(pending.values()).forEach(function (edit) { if (edit.reason) resend(edit); });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-retry]");
    if (!button) return;
    event.preventDefault();
    if (button.dataset.retry === "*") {
      resendAll();
    } else if (pending.has(button.dataset.retry)) {
      resend(pending.get(button.dataset.retry));
    }
  });

  window.addEventListener("online", resendAll);

  // Leaving the page with an edit the server has not taken would lose it: ask first.
  window.addEventListener("beforeunload", function (event) {
    if (!pending.size) return;
    event.preventDefault();
    event.returnValue = "";
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
    // A swap may have redrawn a row whose edit is still unsaved: mark it again.
    if (pending.size) drawUnsaved();
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
