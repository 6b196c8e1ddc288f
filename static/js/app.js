// Behaviour every page shares, kept out of the templates: the Content Security Policy
// allows no inline script and no on*="" handlers.
(function () {
  "use strict";
  // Controls that only work with script (a Copy button) are hidden by CSS until this runs.
  document.documentElement.classList.add("js");

  // A read-only link box (an invitation link) selects its whole text when focused, ready
  // to copy.
  document.addEventListener("focusin", function (event) {
    var field = event.target;
    if (field && field.matches && field.matches("input.link-field[readonly]")) field.select();
  });

  // A Copy button copies the text of the field it names (data-copy="<id>") and says so on
  // itself for a moment. The Clipboard API needs a secure context; on plain HTTP (a LAN) the
  // field is selected and copied the old way.
  function copied(button, ok) {
    var label = button.getAttribute("data-label") || button.textContent;
    button.setAttribute("data-label", label);
    button.textContent = ok ? "Copied" : "Press Ctrl+C to copy";
    window.setTimeout(function () { button.textContent = label; }, 2500);
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-copy]");
    if (!button) return;
    var field = document.getElementById(button.getAttribute("data-copy"));
    if (!field) return;
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(
        function () { copied(button, true); },
        function () { field.focus(); field.select(); copied(button, false); }
      );
      return;
    }
    field.focus();
    field.select();
    var ok = false;
    try { ok = document.execCommand("copy"); } catch (error) { ok = false; }
    copied(button, ok);
  });

  // Typed text and its limit (maxlength, which the browser enforces): a field says "n of
  // max characters" under it while it is near the limit (a notes field names its limit from
  // the start, drawn by the server), and a paste that does not fit says how much was left
  // out, instead of being cut without a word.
  var LIMITED = "input[maxlength], textarea[maxlength]";
  function limitHint(field) {
    var id = field.id + "-limit";
    var hint = document.getElementById(id);
    if (!hint && field.id) {
      hint = document.createElement("small");
      hint.className = "limit";
      hint.id = id;
      field.insertAdjacentElement("afterend", hint);
      var described = field.getAttribute("aria-describedby");
      field.setAttribute("aria-describedby", described ? described + " " + id : id);
    }
    return hint;
  }
  function showCount(field, leftOut) {
    var most = field.maxLength;
    if (!(most > 0)) return;
    var used = field.value.length;
    var hint = document.getElementById(field.id + "-limit");
    if (!hint && !leftOut && used < most * 0.8) return;
    hint = limitHint(field);
    if (!hint) return;
    if (leftOut) {
      hint.setAttribute("role", "alert");
      hint.textContent = leftOut + " pasted characters did not fit and were left out: " +
        most + " characters at most.";
    } else {
      hint.removeAttribute("role");
      hint.textContent = used + " of " + most + " characters";
    }
    hint.classList.toggle("full", used >= most || !!leftOut);
  }
  document.addEventListener("input", function (event) {
    var field = event.target;
    if (field.matches && field.matches(LIMITED)) showCount(field, 0);
  });
  document.addEventListener("paste", function (event) {
    var field = event.target;
    if (!(field.matches && field.matches(LIMITED)) || !(field.maxLength > 0)) return;
    var pasted = (event.clipboardData && event.clipboardData.getData("text")) || "";
    var kept = field.value.length - (field.selectionEnd - field.selectionStart);
    var leftOut = kept + pasted.replace(/\r\n/g, "\n").length - field.maxLength;
    if (leftOut > 0) window.setTimeout(function () { showCount(field, leftOut); }, 0);
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
