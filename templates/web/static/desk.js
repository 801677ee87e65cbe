// The host's desk: no inline scripts (the content security policy forbids them).
"use strict";

// Live updates (docs/design.md: The host's desk in the browser — live updates): a page
// that names a version URL (an element with data-version-url) asks it every few seconds;
// when the version changed, the page reloads, unless the host has edited a form field on
// it, whose text a reload would lose: then it says so and leaves the reload to the host.
(function () {
  const POLL_MILLISECONDS = 3000;
  const live = document.getElementById("live");
  if (!live || !live.dataset.versionUrl) {
    return;
  }
  // Whether a field of a form on the page holds something other than what the page came with.
  function edited() {
    return Array.from(document.forms).some(function (form) {
      return Array.from(form.elements).some(function (field) {
        if (field.type === "checkbox" || field.type === "radio") {
          return field.checked !== field.defaultChecked;
        }
        if (field.tagName === "SELECT") {
          return Array.from(field.options).some(function (option) { return option.selected !== option.defaultSelected; });
        }
        if (field.dataset && field.dataset.kept !== undefined && field.value) {
          return true;  // words the page gave back after a refusal: the host's own
        }
        return "defaultValue" in field && field.type !== "hidden" && field.value !== field.defaultValue;
      });
    });
  }

  function tell() {
    const notice = document.createElement("p");
    notice.className = "note live-notice";
    notice.setAttribute("role", "status");
    notice.id = "live-notice";
    notice.textContent = live.dataset.changed || "This game changed; reload when you are done.";
    const main = document.getElementById("main") || document.body;
    main.insertBefore(notice, main.firstChild);
  }

  function poll() {
    fetch(live.dataset.versionUrl, {credentials: "same-origin", cache: "no-store"})
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (answer) {
        if (answer && answer.version && answer.version !== live.dataset.version) {
          if (edited()) {
            tell();  // and stop asking: the host reloads when done
          } else {
            window.location.reload();
          }
          return;
        }
        window.setTimeout(poll, POLL_MILLISECONDS);
      })
      .catch(function () { window.setTimeout(poll, POLL_MILLISECONDS); });
  }

  window.setTimeout(poll, POLL_MILLISECONDS);
}());
