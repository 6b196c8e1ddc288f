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
    var status = xhr ? xhr.status : 0;
    if (!navigator.onLine || !status) return "no connection; sent again once you are back online.";
    if (status >= 500) return "the server failed (error " + status + ").";
    // A refusal (403) or a login page instead of the sheet: the session has ended.
    return "you may have been logged out (" + (status >= 400 ? "error " + status : "no sheet came back")
      + "). Log in again in another tab, then retry.";
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

  // The control an edit changed, or the button it pressed: found again by name (and a
  // dot or button by value) when a swap redrew its row, showing the unsaved value again.
  function controlOf(edit) {
    var old = edit.name ? edit.control : edit.button;
    if (!old || old.isConnected) return old;
    var found = Array.from(document.querySelectorAll('#sheet-form [name="' + CSS.escape(old.name)
      + '"]:not([type=hidden])')).find(function (candidate) {
      return !/radio|submit/.test(candidate.type) || candidate.value === old.value;
    });
    if (found && edit.name) {
      if (found.type === "checkbox") found.checked = edit.checked;
      else if (found.type === "radio") found.checked = true;
      else found.value = edit.value;
    }
    if (found) edit[edit.name ? "control" : "button"] = found;
    return found;
  }

  function placeOf(edit) {
    var control = controlOf(edit);
    return control && (control.closest(".trait, .field, li, p, fieldset, tr") || control.parentElement);
  }

  // Draw every unsaved edit's note beside its field, and one line above the sheet.
  function retryButton(key, label) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "retry";
    button.dataset.retry = key;
    button.textContent = label;
    return button;
  }

  function drawUnsaved() {
    document.querySelectorAll(".unsaved-note").forEach(function (note) { note.remove(); });
    document.querySelectorAll(".unsaved").forEach(function (row) {
      row.classList.remove("unsaved");
    });
    var failed = Array.from(pending.values()).filter(function (edit) {
      return !edit.sent && edit.reason;
    });
    failed.forEach(function (edit) {
      var place = placeOf(edit);
      if (!place) return;
      place.classList.add("unsaved");
      var note = document.createElement("span");
      note.className = "unsaved-note error";
      note.setAttribute("role", "alert");
      note.innerHTML = "<strong>Not saved</strong>: ";
      note.append(edit.reason + " ", retryButton(edit.key, "Retry"));
      place.appendChild(note);
    });
    var summary = document.getElementById("unsaved-summary");
    var sheet = document.getElementById("sheet");
    if (!failed.length || !sheet) {
      if (summary) summary.remove();
      return;
    }
    if (!summary) {
      summary = document.createElement("div");
      summary.id = "unsaved-summary";
      summary.className = "message error";
      summary.setAttribute("role", "status");
      sheet.insertBefore(summary, document.getElementById("sheet-form"));
    }
    var one = failed.length === 1;
    summary.textContent = (one ? "1 change is" : failed.length + " changes are") + " not saved yet. ";
    summary.appendChild(retryButton("*", one ? "Retry" : "Retry all"));
  }

  function resend(edit) {
    if (edit.sent) return;
    var form = document.getElementById("sheet-form");
    if (!form) return;
    var control = controlOf(edit);
    if (control && edit.name) control.dispatchEvent(new Event("change", { bubbles: true }));
    else if (control) form.requestSubmit(control);
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

  // Someone else changed this sheet (sheets/live: the stream's "sheet" event fetches the
  // rows that changed since the version shown). A row holding the field being typed in,
  // or an edit not saved yet, is not redrawn; the page then keeps its older version, so
  // the viewer's next edit merges as any edit does ("Also shows changes by ..."), and it
  // fetches again once the viewer has left the field and every edit is saved.
  var liveHeld = null;
  var liveBehind = false;

  function typingIn(target) {
    var active = document.activeElement;
    if (active && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName) && target.contains(active)) {
      return true;
    }
    return Array.from(pending.values()).some(function (edit) {
      var control = controlOf(edit);
      return Boolean(control && target.contains(control));
    });
  }

  function isLiveFetch(elt) {
    return Boolean(elt && elt.classList && elt.classList.contains("sheet-live-fetch"));
  }

  // The stream names the version it saw: nothing to fetch when the page shows it already
  // (this viewer's own edit, whose answer came first).
  document.addEventListener("htmx:confirm", function (event) {
    if (!isLiveFetch(event.detail.elt)) return;
    var since = document.getElementById("sheet-live-since");
    var told = event.detail.triggeringEvent && event.detail.triggeringEvent.detail;
    var version = told && told.data !== undefined ? Number(told.data) : NaN;
    if (since && version <= Number(since.value)) event.preventDefault();
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    if (!isLiveFetch(event.detail.elt)) return;
    var answer = document.createElement("template");
    answer.innerHTML = event.detail.serverResponse || "";
    // An answer drawn before this page's own edit landed is older than the page: it would
    // put the sheet back as it was.
    var answered = answer.content.querySelector("#sheet-version");
    var shown = document.getElementById("sheet-version");
    if (answered && shown
      && Number(answered.getAttribute("value")) <= Number(shown.value)) {
      event.detail.shouldSwap = false;
      return;
    }
    liveHeld = false;
    answer.content.querySelectorAll("[hx-swap-oob][id]").forEach(function (piece) {
      var target = document.getElementById(piece.id);
      if (target && typingIn(target)) liveHeld = true;
    });
  });

  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    if (liveHeld === null) return;
    var target = event.detail.target;
    var version = target.id === "sheet-version" || target.id === "sheet-live-since";
    if (typingIn(target) || (liveHeld && version)) event.detail.shouldSwap = false;
  });

  // After the answer's swaps (htmx swaps before it ends the request), whatever it was.
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!isLiveFetch(event.detail.elt) || liveHeld === null) return;
    liveBehind = liveHeld;
    liveHeld = null;
  });

  function catchUp() {
    if (!liveBehind || pending.size) return;
    var active = document.activeElement;
    if (active && active.closest && active.closest("#sheet-form")
      && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName)) return;
    var fetcher = document.querySelector(".sheet-live-fetch");
    liveBehind = false;
    if (fetcher) htmx.trigger(fetcher, "live-catch-up");
  }

  document.addEventListener("focusout", function () { window.setTimeout(catchUp, 0); });

  document.addEventListener("htmx:afterSettle", function () {
    // The page's own edit moved the version: the stream's news of it is no news here.
    var shown = document.getElementById("sheet-version");
    var since = document.getElementById("sheet-live-since");
    if (shown && since && Number(shown.value) > Number(since.value)) since.value = shown.value;
    window.setTimeout(catchUp, 0);
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
