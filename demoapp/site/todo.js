// Todo list state lives in localStorage, so it survives a reload within one
// browser context and never leaks into another.
(function () {
  "use strict";
  var KEY = "demo-todos";
  var todos = load();
  var nextId = todos.reduce(function (m, t) { return Math.max(m, t.id); }, 0) + 1;
  var list = document.querySelector("[data-testid=todo-list]");
  var count = document.querySelector("[data-testid=todo-count]");
  var input = document.getElementById("new-todo");

  function load() {
    try { return JSON.parse(localStorage.getItem(KEY)) || []; } catch (e) { return []; }
  }
  function save() { localStorage.setItem(KEY, JSON.stringify(todos)); }
  function filter() {
    var h = location.hash;
    return h === "#/active" ? "active" : h === "#/completed" ? "completed" : "all";
  }

  function render() {
    var f = filter();
    list.textContent = "";
    todos.forEach(function (t) {
      if ((f === "active" && t.done) || (f === "completed" && !t.done)) return;
      var li = document.createElement("li");
      li.dataset.testid = "todo-item";
      if (t.done) li.className = "completed";
      var label = document.createElement("label");
      var box = document.createElement("input");
      box.type = "checkbox";
      box.checked = t.done;
      box.addEventListener("change", function () { t.done = box.checked; save(); render(); });
      var span = document.createElement("span");
      span.textContent = t.title;
      span.dataset.testid = "todo-title";
      label.appendChild(box);
      label.appendChild(document.createTextNode(" "));
      label.appendChild(span);
      var del = document.createElement("button");
      del.type = "button";
      del.className = "link";
      del.textContent = "\u00d7";
      del.setAttribute("aria-label", "Delete " + t.title);
      del.addEventListener("click", function () {
        todos = todos.filter(function (x) { return x !== t; });
        save(); render();
      });
      li.appendChild(label);
      li.appendChild(del);
      list.appendChild(li);
    });
    var left = todos.filter(function (t) { return !t.done; }).length;
    count.textContent = left + (left === 1 ? " item left" : " items left");
    document.querySelectorAll("[data-filter]").forEach(function (a) {
      if (a.dataset.filter === f) a.setAttribute("aria-current", "page");
      else a.removeAttribute("aria-current");
    });
  }

  document.getElementById("new-todo-form").addEventListener("submit", function (e) {
    e.preventDefault();
    var title = input.value.trim();
    if (!title) return;
    todos.push({ id: nextId++, title: title, done: false });
    input.value = "";
    save(); render();
  });
  document.getElementById("clear-completed").addEventListener("click", function () {
    todos = todos.filter(function (t) { return !t.done; });
    save(); render();
  });
  window.addEventListener("hashchange", render);
  render();
})();
