/* The replay viewer: steps through a match log (match-log.md) a window of events at a time.
   The page carries one window (the board before it, its events and their sentences from
   play/narrate.py, so the play page and the replay explain a match in the same words) and the
   jump marks of the whole log; stepping past the window fetches the next one from the steps
   URL (play/replays/steps.py), so neither the server nor the browser ever builds the board or
   the sentences of every step of a long log at once. */
(function () {
  "use strict";

  var SIDES = ["A", "B"];

  function zero() { return { keep: 0, shoot: 0, defense: 0 }; }

  function other(side) { return side === "A" ? "B" : "A"; }

  function copy(state) {
    var sides = {};
    SIDES.forEach(function (s) {
      var x = state.sides[s];
      sides[s] = {
        hand: x.hand.slice(), deck: x.deck, discard: x.discard, inPlay: x.inPlay.slice(),
        totals: Object.assign({}, x.totals), keeper: x.keeper,
      };
    });
    return {
      half: state.half, turn: state.turn, offense: state.offense,
      ball: state.ball ? Object.assign({}, state.ball) : null, shot: state.shot,
      score: Object.assign({}, state.score), pk: state.pk ? Object.assign({}, state.pk) : null,
      result: state.result, sides: sides,
    };
  }

  function removeOnce(list, id) {
    var at = list.indexOf(id);
    if (at >= 0) list.splice(at, 1);
  }

  function apply(state, e, keepHands) {
    var s = state.sides;
    switch (e.type) {
      case "half_start":
        state.half = e.half; state.turn = 0; state.offense = e.kickoff; state.ball = null;
        state.shot = false;
        SIDES.forEach(function (side) {
          s[side].deck = e.decks[side].length; s[side].discard = 0; s[side].inPlay = [];
          s[side].totals = zero();
          if (!keepHands) s[side].hand = [];
        });
        break;
      case "turn_start":
        state.turn = e.turn; state.offense = e.offense; state.ball = e.ball ? Object.assign({}, e.ball) : null;
        state.score = Object.assign({}, e.score); state.shot = false;
        SIDES.forEach(function (side) {
          s[side].hand = e.hands[side].slice(); s[side].deck = e.deck_counts[side];
          s[side].totals = zero(); s[side].inPlay = [];
        });
        break;
      case "draw":
        Array.prototype.push.apply(s[e.side].hand, e.cards); s[e.side].deck = e.deck_count;
        break;
      case "kick":
        state.ball = Object.assign({}, e.ball); state.shot = e.shot;
        break;
      case "play":
        e.cards.forEach(function (id) { removeOnce(s[e.side].hand, id); s[e.side].inPlay.push(id); });
        SIDES.forEach(function (side) { s[side].totals = Object.assign({}, e.totals[side]); });
        break;
      case "judge":
        if (e.kind === "shot" && e.outcome !== "corner_kick") {
          state.offense = other(state.offense);
        } else if (e.kind === "keep" && e.outcome === "swap") {
          var old = state.offense;
          state.offense = other(old);
          if (state.ball) state.ball.arrow = old;
        }
        break;
      case "goal":
        state.score = Object.assign({}, e.score);
        break;
      case "discard":
        s[e.side].discard += e.cards.length; s[e.side].inPlay = [];
        break;
      case "half_end":
        state.score = Object.assign({}, e.score);
        break;
      case "pk_start":
        state.pk = { A: 0, B: 0 }; state.ball = null; state.shot = false; state.turn = 0;
        SIDES.forEach(function (side) {
          s[side].keeper = e.goalkeepers[side]; s[side].deck = e.decks[side].length;
          s[side].hand = []; s[side].inPlay = []; s[side].totals = zero();
        });
        break;
      case "pk_reshuffle":
        s[e.side].deck = e.deck.length;
        break;
      case "pk_kick":
        s[e.side].deck = Math.max(0, s[e.side].deck - 1);
        s[e.side].inPlay = [e.card];
        if (e.scored) state.pk[e.side] += 1;
        break;
      case "match_end":
        state.result = e;
        break;
    }
    return state;
  }

  // The boards of one window: its first (from the server), then one per event.
  function windowStates(win, keepHands) {
    var states = [win.state];
    var state = win.state;
    win.events.forEach(function (e) {
      state = apply(copy(state), e, keepHands);
      states.push(state);
    });
    return states;
  }

  // ----- rendering ------------------------------------------------------------------------

  function Viewer(root, data) {
    this.root = root;
    this.data = data;
    this.cards = data.cards;
    this.strings = data.strings;
    this.markers = data.markers;
    this.size = data.window_size;
    this.keepHands = data.keep_hands;
    this.total = data.total;
    this.windows = {};
    this.win = null;
    this.addWindow(data.window);
    this.position = -1;
    this.template = document.getElementById("card-tile-template");
    this.range = root.querySelector("[data-timeline]");
    this.list = root.querySelector("[data-events]");
    this.now = root.querySelector("[data-now]");
    this.where = root.querySelector("[data-position]");
  }

  Viewer.prototype.bind = function (scope, name) {
    return scope.querySelector('[data-bind="' + name + '"]');
  };

  Viewer.prototype.tile = function (id, small) {
    var card = this.cards[id] || { id: id, name: id, kind: "player", position: "", shoot: "?", keep: "?", defense: "?", effect: "" };
    var node = this.template.content.firstElementChild.cloneNode(true);
    node.className = "card-tile kind-" + (card.kind || "player") + (small ? " small" : "");
    node.dataset.card = card.id;
    node.title = card.name + " · " + card.id;
    ["position", "id", "name", "shoot", "keep", "defense", "effect"].forEach(function (f) {
      var el = node.querySelector('[data-f="' + f + '"]');
      if (el) el.textContent = card[f] === undefined || card[f] === null ? "" : card[f];
    });
    return node;
  };

  Viewer.prototype.fillTiles = function (container, ids, small) {
    var self = this;
    var key = ids.join(",");
    if (container.dataset.ids === key && container.childElementCount) return;
    container.dataset.ids = key;
    container.textContent = "";
    if (!ids.length) {
      var empty = document.createElement("span");
      empty.className = "muted small empty-note";
      empty.textContent = "–";
      container.appendChild(empty);
      return;
    }
    ids.forEach(function (id) { container.appendChild(self.tile(id, small)); });
  };

  Viewer.prototype.renderBoard = function (state) {
    var root = this.root;
    var strings = this.strings;
    var self = this;
    var board = root.querySelector(".board");
    board.dataset.offense = state.offense;
    this.bind(board, "score-A").textContent = state.score.A;
    this.bind(board, "score-B").textContent = state.score.B;
    this.bind(board, "half").textContent = state.pk ? strings.pk : (state.half === 1 ? strings.half1 : strings.half2);
    this.bind(board, "turn").textContent = state.turn ? strings.turn.replace("%(turn)s", state.turn) : "";
    var pk = this.bind(board, "pk");
    pk.hidden = !state.pk;
    if (state.pk) pk.textContent = "PK " + state.pk.A + "–" + state.pk.B;
    var ball = this.bind(board, "ball");
    if (state.ball) {
      ball.hidden = false;
      ball.style.setProperty("--zone", state.ball.zone);
      ball.dataset.arrow = state.ball.arrow;
      ball.setAttribute("aria-label", "zone " + state.ball.zone + " → " + state.ball.arrow);
    } else {
      ball.hidden = true;
    }
    this.bind(board, "shot").hidden = !state.shot;
    SIDES.forEach(function (side) {
      var panel = board.querySelector('.side[data-side="' + side + '"]');
      var x = state.sides[side];
      var offense = state.offense === side;
      panel.classList.toggle("role-offense", offense);
      panel.classList.toggle("role-defense", !offense);
      var role = self.bind(panel, "role");
      role.textContent = offense ? role.dataset.offense : role.dataset.defense;
      self.bind(panel, "deck").textContent = x.deck;
      self.bind(panel, "discard").textContent = x.discard;
      self.bind(panel, "hand-count").textContent = x.hand.length;
      self.bind(panel, "keep").textContent = x.totals.keep;
      self.bind(panel, "shoot").textContent = x.totals.shoot;
      self.bind(panel, "defense").textContent = x.totals.defense;
      self.fillTiles(self.bind(panel, "in-play"), x.inPlay, true);
      self.fillTiles(self.bind(panel, "hand"), x.hand, false);
      self.fillTiles(self.bind(panel, "goalkeeper"), [x.keeper], true);
      var goal = board.querySelector(".goal-" + side + " span");
      var keeper = self.cards[x.keeper];
      if (goal && keeper) goal.textContent = keeper.defense;
    });
  };

  Viewer.prototype.addWindow = function (win) {
    win.states = windowStates(win, this.keepHands);
    this.windows[win.start] = win;
    return win;
  };

  // The window showing board position p: the one holding event p - 1 (replay/steps.py).
  Viewer.prototype.windowStart = function (position) {
    return position <= 0 ? 0 : Math.floor((position - 1) / this.size) * this.size;
  };

  Viewer.prototype.load = function (start) {
    var self = this;
    if (this.windows[start]) return Promise.resolve(this.windows[start]);
    if (!this.data.steps_url) return Promise.reject(new Error("no steps URL"));
    var url = this.data.steps_url + (this.data.steps_url.indexOf("?") < 0 ? "?" : "&") +
      "position=" + (start + 1);
    this.where.textContent = this.strings.loading;
    return fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.json();
      })
      .then(function (win) { return self.addWindow(win); });
  };

  Viewer.prototype.renderList = function (win) {
    if (this.listed === win.start) return;
    this.listed = win.start;
    var fragment = document.createDocumentFragment();
    win.lines.forEach(function (line) {
      var li = document.createElement("li");
      li.className = "ev ev-" + line.type + (line.tone ? " tone-" + line.tone : "") + " future";
      li.dataset.i = line.index;
      li.textContent = line.text;
      if (line.rule && line.text.indexOf(line.rule) < 0) {
        var rule = document.createElement("span");
        rule.className = "rule";
        rule.textContent = line.rule;
        li.appendChild(document.createTextNode(" "));
        li.appendChild(rule);
      }
      fragment.appendChild(li);
    });
    this.list.textContent = "";
    this.list.appendChild(fragment);
    this.list.start = win.start + 1;
    this.items = Array.prototype.slice.call(this.list.children);
    var range = this.root.querySelector("[data-window-range]");
    if (range) {
      range.textContent = this.strings.range.replace("%(from)s", win.start + 1)
        .replace("%(to)s", win.end).replace("%(total)s", this.total);
    }
    var earlier = this.root.querySelector('[data-go="prev-window"]');
    var later = this.root.querySelector('[data-go="next-window"]');
    if (earlier) earlier.hidden = win.start === 0;
    if (later) later.hidden = win.end >= this.total;
  };

  Viewer.prototype.renderMarkers = function () {
    var self = this;
    var box = this.root.querySelector("[data-markers]");
    var total = Math.max(this.total, 1);
    function place(mark, index) {
      mark.style.left = ((index + 1) / total * 100) + "%";
      mark.dataset.to = index + 1;
      box.appendChild(mark);
    }
    this.markers.goals.forEach(function (g) {
      var mark = document.createElement("button");
      mark.type = "button";
      mark.className = "marker marker-goal-" + g[1];
      mark.textContent = "⚽";
      mark.title = self.strings.goal + " " + g[2] + "–" + g[3];
      place(mark, g[0]);
    });
    this.markers.halves.forEach(function (h) {
      var mark = document.createElement("span");
      mark.className = "marker marker-half";
      mark.title = h[1] === "pk_start" ? self.strings.pk : self.strings.half + " " + h[2];
      place(mark, h[0]);
    });
    box.addEventListener("click", function (event) {
      var mark = event.target.closest("[data-to]");
      if (mark) self.go(parseInt(mark.dataset.to, 10));
    });
    this.list.addEventListener("click", function (event) {
      var li = event.target.closest("li[data-i]");
      if (li) self.go(parseInt(li.dataset.i, 10) + 1);
    });
  };

  Viewer.prototype.go = function (position) {
    var self = this;
    position = Math.max(0, Math.min(this.total, position));
    var start = this.windowStart(position);
    if (this.windows[start]) return this.show(this.windows[start], position);
    this.target = position;
    return this.load(start).then(
      function (win) { if (self.target === position) self.show(win, position); },
      function () { self.where.textContent = self.strings.load_failed; }
    );
  };

  Viewer.prototype.show = function (win, position) {
    var fresh = this.listed !== win.start;
    this.renderList(win);
    var previous = fresh ? -1 : this.position;
    this.win = win;
    this.position = position;
    var state = win.states[position - win.start];
    this.renderBoard(state);
    this.range.value = position;
    var line = position > 0 ? win.lines[position - 1 - win.start] : null;
    this.now.className = "now" + (line && line.tone === "goal" ? " tone-goal" : "");
    if (line) {
      this.now.textContent = line.text;
      if (line.rule && line.text.indexOf(line.rule) < 0) {
        var rule = document.createElement("span");
        rule.className = "rule";
        rule.textContent = line.rule;
        this.now.appendChild(document.createTextNode(" "));
        this.now.appendChild(rule);
      }
    } else {
      this.now.textContent = this.strings.start;
    }
    this.where.textContent = this.strings.event.replace("%(n)s", position).replace("%(total)s", this.total) +
      " · " + (state.pk ? this.strings.pk : (state.half === 1 ? this.strings.half1 : this.strings.half2)) +
      (state.turn ? " · " + this.strings.turn.replace("%(turn)s", state.turn) : "");
    this.markList(previous, position);
    if (history.replaceState) history.replaceState(null, "", "#e=" + position);
  };

  Viewer.prototype.markList = function (previous, position) {
    var items = this.items;
    var base = this.win.start;  // items[k] is event base + k
    var from = previous < 0 ? 0 : Math.min(previous, position) - 1 - base;
    var to = previous < 0 ? items.length : Math.max(previous, position) + 1 - base;
    for (var k = Math.max(0, from); k < Math.min(items.length, to); k++) {
      items[k].classList.toggle("future", base + k >= position);
      items[k].classList.toggle("current", base + k === position - 1);
    }
    var current = items[position - 1 - base];
    if (current) {
      var list = this.list;
      var top = current.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - 30) {
        list.scrollTop = Math.max(0, top - list.clientHeight / 3);
      }
    }
  };

  // The first / last event index of a sorted list that is >= from / <= from, or -1.
  function after(list, from) {
    for (var i = 0; i < list.length; i++) if (list[i] >= from) return list[i];
    return -1;
  }

  function before(list, from) {
    for (var i = list.length - 1; i >= 0; i--) if (list[i] <= from) return list[i];
    return -1;
  }

  function firsts(rows) { return rows.map(function (row) { return row[0]; }); }

  Viewer.prototype.command = function (name) {
    var p = this.position;
    var at;
    switch (name) {
      case "start": return this.go(0);
      case "end": return this.go(this.total);
      case "next": return this.go(p + 1);
      case "prev": return this.go(p - 1);
      case "next-turn":
        at = after(this.markers.turns, p);
        return this.go(at < 0 ? this.total : at + 1);
      case "prev-turn":
        at = before(this.markers.turns, p - 2);
        return this.go(at < 0 ? 0 : at + 1);
      case "goal":
        at = after(firsts(this.markers.goals), p);
        return this.go(at < 0 ? this.total : at + 1);
      case "half":
        at = after(firsts(this.markers.halves), p);
        return this.go(at < 0 ? this.total : at + 1);
      case "prev-window":
        return this.go(this.win ? Math.max(0, this.win.start) : 0);
      case "next-window":
        return this.go(this.win ? Math.min(this.total, this.win.end + 1) : 0);
    }
  };

  Viewer.prototype.start = function () {
    var self = this;
    this.renderMarkers();
    this.root.addEventListener("click", function (event) {
      var button = event.target.closest("[data-go]");
      if (button) self.command(button.dataset.go);
    });
    this.range.addEventListener("input", function () { self.go(parseInt(self.range.value, 10)); });
    document.addEventListener("keydown", function (event) {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      var target = event.target;
      var tag = target && target.tagName;
      if (tag === "TEXTAREA" || tag === "SELECT") return;
      if (tag === "INPUT" && target.type !== "range") return;
      var onRange = target === self.range;
      var key = event.key;
      var command = null;
      if (key === "ArrowRight" && !onRange) command = event.shiftKey ? "next-turn" : "next";
      else if (key === "ArrowLeft" && !onRange) command = event.shiftKey ? "prev-turn" : "prev";
      else if (key === "g" || key === "G") command = "goal";
      else if (key === "h" || key === "H") command = "half";
      else if (key === "Home" && !onRange) command = "start";
      else if (key === "End" && !onRange) command = "end";
      if (command) {
        event.preventDefault();
        self.command(command);
      }
    });
    var match = /^#e=(\d+)$/.exec(location.hash);
    this.go(match ? parseInt(match[1], 10) : 0);
  };

  document.addEventListener("DOMContentLoaded", function () {
    var root = document.getElementById("replay");
    var node = document.getElementById("replay-data");
    if (!root || !node) return;
    var viewer = new Viewer(root, JSON.parse(node.textContent));
    viewer.start();
    window.elevenStarsReplay = viewer; // for the browser tests and the curious
  });
})();
