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
  // The header's menu (base.html) is open wherever its links stand in the row (site.css shows
  // them there without JavaScript too), so they are part of the page for every reader and tool;
  // on a narrow screen it starts closed, one row.
  var wide = window.matchMedia("(min-width: 1280px)");
  function syncMenu() {
    var menu = document.querySelector(".site-header .nav-menu");
    if (menu) menu.open = wide.matches;
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", syncMenu); else syncMenu();
  if (wide.addEventListener) wide.addEventListener("change", syncMenu);
})();
