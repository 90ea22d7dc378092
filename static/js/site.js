/* Small behaviours of every page, as delegated listeners: the Content-Security-Policy allows no
   inline event handlers (onclick=…), so templates mark elements with data attributes instead. */
(function () {
  "use strict";
  document.addEventListener("change", function (event) {
    var field = event.target.closest && event.target.closest("[data-submit-on-change]");
    if (field && field.form) field.form.submit();
  });
  document.addEventListener("click", function (event) {
    if (!event.target.closest) return;
    var select = event.target.closest("[data-select-on-click]");
    if (select) select.select();
    if (event.target.closest("[data-print]")) window.print();
  });
})();
