/* ``ismcts``'s iterations: the tree, its descent, the playout and the scoring of an ending.
 *
 * The mirror of ``ismcts.Search.iterate`` (with ``tree``'s PUCT, ``search.step``,
 * ``search.smart_playout``, ``ismcts.Values`` and ``core.Scorer``), for one sampled deal at
 * a time: sampling and weighing the deals stay in Python, a deal's iterations are done here.
 */
#include <math.h>

#include "native.h"

#define MAX_LEGAL 56 /* at most 28 tiles, each at two ends */
#define PRIORS 128

static int pips(uint32_t mask) {
    int total = 0;
    while (mask) {
        total += VALUE[low_bit(mask)];
        mask &= mask - 1;
    }
    return total;
}

/* ---- one side's scoring of an ending: ``core.Scorer`` ---- */

typedef struct {
    int side;
    int kozel, goat, winner_takes, penalties, fish_all;
    long target, eggs, lone00, lone66;
    long scores[MAX_SEATS];
    double bonus;
} Scorer;

typedef struct {
    int n, sides, two, me_side;
    int side_of[MAX_SEATS];
    int count;
    Scorer scorers[MAX_SEATS];
} Values;

static long counted(const Scorer *s, uint32_t hand) {
    if (hand == 1u) /* 0-0 alone */
        return s->lone00;
    if (hand == 1u << 27) /* 6-6 alone */
        return s->lone66;
    return pips(hand);
}

/* ``Scorer._points``: the points per side of this ending. */
static void points(const Values *v, const Scorer *s, int domino, const uint32_t *hands, int last,
                   long *pts) {
    long values[MAX_SEATS] = {0};
    int sides = v->sides, won, i;
    for (i = 0; i < sides; i++)
        pts[i] = 0;
    for (i = 0; i < v->n; i++)
        values[v->side_of[i]] += pips(hands[i]);
    if (domino) {
        won = v->side_of[last];
    } else {
        long low = values[0];
        int ties = 0;
        for (i = 1; i < sides; i++)
            if (values[i] < low)
                low = values[i];
        won = -1;
        for (i = 0; i < sides; i++)
            if (values[i] == low) {
                ties++;
                if (won < 0)
                    won = i;
            }
        if (ties > 1)
            return; /* tied / eggs: nobody scores now */
    }
    if (s->kozel) {
        int loser = 1 - won;
        long charge = 0;
        if (domino) {
            for (i = 0; i < v->n; i++)
                if (v->side_of[i] == loser)
                    charge += counted(s, hands[i]);
        } else if (s->fish_all) {
            for (i = 0; i < sides; i++)
                charge += values[i];
        } else {
            charge = values[0];
            for (i = 1; i < sides; i++)
                if (values[i] > charge)
                    charge = values[i];
        }
        charge += s->eggs;
        if (s->scores[loser] == 0 && charge < 13)
            return;
        pts[loser] = charge;
        return;
    }
    long all = 0;
    for (i = 0; i < sides; i++)
        all += values[i];
    long others = all - values[won];
    if (s->goat) {
        if (domino) { /* R28a: a lone 0-0 or 6-6 counts specially */
            for (i = 0; i < sides; i++)
                values[i] = 0;
            for (i = 0; i < v->n; i++)
                values[v->side_of[i]] += counted(s, hands[i]);
        }
        for (i = 0; i < sides; i++)
            pts[i] = i == won ? 0 : values[i];
        return;
    }
    if (s->winner_takes && !domino)
        pts[won] = others - values[won];
    else
        pts[won] = others;
}

/* ``Scorer._gain``: the side's gain from ``pts``, with the bonus where they decide the game. */
static double gain(const Values *v, const Scorer *s, const long *pts) {
    int me = s->side, sides = v->sides, i, first = 1;
    long mine = pts[me], other = 0;
    double value;
    for (i = 0; i < sides; i++)
        if (i != me && (first || pts[i] > other)) {
            other = pts[i];
            first = 0;
        }
    if (s->penalties) {
        value = sides == 2 ? (double)(other - mine) : (double)(-mine);
        if (s->bonus != 0.0) {
            if (s->scores[me] + mine > s->target && mine)
                value -= s->bonus;
            else if (sides == 2 && other && s->scores[1 - me] + other > s->target)
                value += s->bonus;
        }
        return value;
    }
    value = (double)(mine - other);
    if (s->bonus != 0.0) {
        if (mine && s->scores[me] + mine >= s->target) {
            value += s->bonus;
        } else if (other) {
            long best = 0;
            first = 1;
            for (i = 0; i < sides; i++)
                if (i != me && (first || s->scores[i] + pts[i] > best)) {
                    best = s->scores[i] + pts[i];
                    first = 0;
                }
            if (best >= s->target)
                value -= s->bonus;
        }
    }
    return value;
}

/* ``ismcts.Values.of``: every side's value of the ending. */
static void values_of(const Values *v, int domino, const uint32_t *hands, int last, double *out) {
    long pts[MAX_SEATS];
    if (v->two) {
        points(v, &v->scorers[0], domino, hands, last, pts);
        double x = gain(v, &v->scorers[0], pts);
        out[0] = v->me_side == 0 ? x : -x;
        out[1] = v->me_side == 0 ? -x : x;
        return;
    }
    for (int i = 0; i < v->count; i++) {
        points(v, &v->scorers[i], domino, hands, last, pts);
        out[i] = gain(v, &v->scorers[i], pts);
    }
}

/* ---- the round's rules: ``search.step`` and ``search.smart_playout`` ---- */

typedef struct {
    uint32_t hands[MAX_SEATS];
    int left, right, drawn;
} State;

typedef struct {
    int n, stop, draw_one;
    uint32_t bone[28];
} Rules;

/* The seat that moves after ``seat`` under ``suits``, drawing for those who cannot play;
 * -1 when the round is blocked. */
static int next_seat(const Rules *r, State *st, int seat, uint32_t suits) {
    int s = (seat + 1) % r->n;
    for (;;) {
        if (st->hands[s] & suits)
            return s;
        if (st->drawn < r->stop) {
            int x = (int)r->bone[st->drawn++];
            st->hands[s] |= 1u << x;
            if (suits >> x & 1)
                return s;
            if (!r->draw_one)
                continue;
        }
        if (st->drawn >= r->stop) {
            int i;
            for (i = 0; i < r->n; i++)
                if (st->hands[i] & suits)
                    break;
            if (i == r->n)
                return -1;
        }
        s = (s + 1) % r->n;
    }
}

/* ``search.step``: the next seat, -1 when blocked, -2 when ``seat`` went out. */
static int step(const Rules *r, State *st, int seat, int t, int end) {
    uint32_t h = st->hands[seat] ^ (1u << t);
    st->hands[seat] = h;
    if (st->left < 0) {
        st->left = LOW[t];
        st->right = HIGH[t];
    } else if (end == 0) {
        st->left = OTHER[t][st->left];
    } else {
        st->right = OTHER[t][st->right];
    }
    if (!h)
        return -2;
    return next_seat(r, st, seat, SUIT[st->left] | SUIT[st->right]);
}

/* ``search.smart_playout`` from ``turn`` (who can play): sets ``domino``, ``last``, returns
 * the plays. */
static int playout(const Rules *r, State *st, int turn, uint32_t heavy, int *domino, int *last) {
    int plays = 0;
    for (;;) {
        uint32_t h = st->hands[turn];
        int left = st->left, right = st->right;
        uint32_t sl = SUIT[left], sr = SUIT[right];
        uint32_t p = h & (sl | sr);
        int t, end;
        if ((p & (p - 1)) == 0) {
            t = top_bit(p);
            if (sl >> t & 1) {
                end = 0;
                if (sr >> t & 1 && left != right) {
                    uint32_t rest = h ^ p;
                    int a = popcount(rest & (SUIT[OTHER[t][left]] | sr));
                    int b = popcount(rest & (sl | SUIT[OTHER[t][right]]));
                    if (b > a)
                        end = 1;
                }
            } else {
                end = 1;
            }
        } else if (heavy >> turn & 1) {
            t = top_bit(p);
            end = sl >> t & 1 ? 0 : 1;
        } else {
            int best = -1000;
            uint32_t nh = st->hands[(turn + 1) % r->n], q = p;
            t = -1;
            end = 0;
            while (q) {
                uint32_t low = q & -q;
                int x = low_bit(q);
                q ^= low;
                uint32_t rest = h ^ low;
                int base = VALUE[x] + (DOUBLES & low ? 4 : 0);
                if (sl & low) {
                    uint32_t ns = SUIT[OTHER[x][left]] | sr;
                    int sc = base + 3 * popcount(rest & ns) + (nh & ns ? 0 : 12);
                    if (sc > best) {
                        best = sc;
                        t = x;
                        end = 0;
                    }
                }
                if (sr & low && left != right) {
                    uint32_t ns = sl | SUIT[OTHER[x][right]];
                    int sc = base + 3 * popcount(rest & ns) + (nh & ns ? 0 : 12);
                    if (sc > best) {
                        best = sc;
                        t = x;
                        end = 1;
                    }
                }
            }
        }
        h ^= 1u << t;
        st->hands[turn] = h;
        plays++;
        if (end == 0)
            st->left = OTHER[t][left];
        else
            st->right = OTHER[t][right];
        if (!h) {
            *domino = 1;
            *last = turn;
            return plays;
        }
        int s = next_seat(r, st, turn, SUIT[st->left] | SUIT[st->right]);
        if (s < 0) {
            *domino = 0;
            *last = turn;
            return plays;
        }
        turn = s;
    }
}

/* ---- the tree: ``tree.Node``, ``tree.Edge``, ``tree.Puct`` ---- */

typedef struct {
    int32_t key, next, child;
    int32_t visits, avail;
    double total;
} Edge;

typedef struct {
    int32_t head, tail;
} Node;

typedef struct {
    PyObject_HEAD
    Edge *edges;
    Node *nodes;
    Py_ssize_t n_edges, cap_edges, n_nodes, cap_nodes;
    Values values;
    Rules rules;
    int me, left, right;
    double c_puct;
    double prior[PRIORS];
    /* ``ismcts.Returns`` */
    long returns_n;
    double returns_total, returns_squares;
    /* ``Work``'s tree, plays and played */
    long long tree, plays, played;
} Tree;

static int grow(void **items, Py_ssize_t *cap, size_t size) {
    Py_ssize_t more = *cap ? *cap * 2 : 1024;
    void *bigger = PyMem_Realloc(*items, (size_t)more * size);
    if (bigger == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    *items = bigger;
    *cap = more;
    return 0;
}

static int32_t new_node(Tree *tr) {
    if (tr->n_nodes == tr->cap_nodes && grow((void **)&tr->nodes, &tr->cap_nodes, sizeof(Node)))
        return -1;
    tr->nodes[tr->n_nodes].head = -1;
    tr->nodes[tr->n_nodes].tail = -1;
    return (int32_t)tr->n_nodes++;
}

/* ``Node.edge`` without the count: the edge of ``key`` at ``node``, made if new (-1: no
 * memory). */
static int32_t edge_of(Tree *tr, int32_t node, int32_t key) {
    int32_t e = tr->nodes[node].head;
    while (e >= 0) {
        if (tr->edges[e].key == key)
            return e;
        e = tr->edges[e].next;
    }
    if (tr->n_edges == tr->cap_edges && grow((void **)&tr->edges, &tr->cap_edges, sizeof(Edge)))
        return -1;
    e = (int32_t)tr->n_edges++;
    Edge *made = &tr->edges[e];
    made->key = key;
    made->next = -1;
    made->child = -1;
    made->visits = 0;
    made->avail = 0;
    made->total = 0.0;
    if (tr->nodes[node].tail >= 0)
        tr->edges[tr->nodes[node].tail].next = e;
    else
        tr->nodes[node].head = e;
    tr->nodes[node].tail = e;
    return e;
}

static inline int32_t key_of(int seat, int t, int end) { return seat << 8 | t << 2 | end; }

/* ``tree.moves``: the (tile, end) plays of ``playable``, tiles lightest first. */
static int moves(uint32_t playable, int left, int right, int *ts, int *ends) {
    int count = 0;
    if (left < 0) {
        while (playable) {
            ts[count] = low_bit(playable);
            ends[count++] = 2;
            playable &= playable - 1;
        }
        return count;
    }
    uint32_t sl = SUIT[left], sr = SUIT[right];
    while (playable) {
        uint32_t low = playable & -playable;
        int t = low_bit(playable);
        playable ^= low;
        if (sl & low) {
            ts[count] = t;
            ends[count++] = 0;
            if (sr & low && left != right) {
                ts[count] = t;
                ends[count++] = 1;
            }
        } else if (sr & low) {
            ts[count] = t;
            ends[count++] = 1;
        }
    }
    return count;
}

/* ``tree.policy_score``. */
static int policy_score(uint32_t hand, int t, int end, int left, int right, uint32_t next_hand) {
    uint32_t low = 1u << t, rest = hand ^ low, ns;
    int base = VALUE[t] + (DOUBLES & low ? 4 : 0);
    if (left < 0)
        ns = SUIT[LOW[t]] | SUIT[HIGH[t]];
    else if (end == 0)
        ns = SUIT[OTHER[t][left]] | SUIT[right];
    else
        ns = SUIT[left] | SUIT[OTHER[t][right]];
    return base + 3 * popcount(rest & ns) + (next_hand & ns ? 0 : 12);
}

/* ``Puct.select``: the edge to descend by among the ``count`` legal plays (-1: no memory). */
static int32_t select_edge(Tree *tr, int32_t node, const int *ts, const int *ends, int count,
                           int seat, uint32_t hand, uint32_t next_hand, int left, int right,
                           double c) {
    int scores[MAX_LEGAL];
    int32_t here[MAX_LEGAL];
    int top = -1, seen_n = 0, i, pick = 0;
    double seen = 0.0, z = 0.0, best = -INFINITY;
    for (i = 0; i < count; i++) {
        int sc = policy_score(hand, ts[i], ends[i], left, right, next_hand);
        scores[i] = sc;
        if (sc > top)
            top = sc;
        int32_t e = edge_of(tr, node, key_of(seat, ts[i], ends[i]));
        if (e < 0)
            return -1;
        tr->edges[e].avail++;
        here[i] = e;
        if (tr->edges[e].visits) {
            seen += tr->edges[e].total / (double)tr->edges[e].visits;
            seen_n++;
        }
    }
    double fpu = seen_n ? seen / (double)seen_n : 0.0;
    for (i = 0; i < count; i++)
        z += tr->prior[top - scores[i]];
    c /= z;
    for (i = 0; i < count; i++) {
        const Edge *e = &tr->edges[here[i]];
        double q = e->visits ? e->total / (double)e->visits : fpu;
        double u = q + c * tr->prior[top - scores[i]] * sqrt((double)e->avail) /
                           (double)(1 + e->visits);
        if (u > best) {
            best = u;
            pick = i;
        }
    }
    return here[pick];
}

/* ``Returns.scale``. */
static double scale(const Tree *tr) {
    if (tr->returns_n < 8)
        return 10.0;
    double mean = tr->returns_total / (double)tr->returns_n;
    double spread = tr->returns_squares / (double)tr->returns_n - mean * mean;
    spread = sqrt(spread > 0.0 ? spread : 0.0);
    return spread > 1.0 ? spread : 1.0;
}

/* ``Search.iterate``: root move (t, end) on the deal in ``st``, down the tree, a playout, and
 * the backup. */
static int iterate(Tree *tr, State st, int t, int end, uint32_t heavy) {
    Rules *r = &tr->rules;
    int32_t path_edge[64];
    int path_side[64];
    int depth = 0, turn = tr->me, ts[MAX_LEGAL], ends[MAX_LEGAL];
    double vals[MAX_SEATS];
    int32_t e = edge_of(tr, 0, key_of(turn, t, end));
    if (e < 0)
        return -1;
    tr->edges[e].avail++;
    double c = tr->c_puct * scale(tr);
    for (;;) {
        if (depth == 64) { /* a round has at most 28 plays */
            PyErr_SetString(PyExc_RuntimeError, "a round longer than 64 plays");
            return -1;
        }
        path_edge[depth] = e;
        path_side[depth++] = tr->values.side_of[turn];
        int fresh = tr->edges[e].visits == 0;
        int nxt = step(r, &st, turn, t, end);
        if (nxt < 0) {
            tr->tree++;
            values_of(&tr->values, nxt == -2, st.hands, turn, vals);
            break;
        }
        if (fresh) {
            int domino, last;
            tr->plays += playout(r, &st, nxt, heavy, &domino, &last);
            tr->played++;
            values_of(&tr->values, domino, st.hands, last, vals);
            break;
        }
        int32_t node = tr->edges[e].child;
        if (node < 0) {
            node = new_node(tr);
            if (node < 0)
                return -1;
            tr->edges[e].child = node;
        }
        turn = nxt;
        uint32_t h = st.hands[turn];
        int count = moves(h & (SUIT[st.left] | SUIT[st.right]), st.left, st.right, ts, ends);
        tr->tree++;
        if (count == 1 || heavy >> turn & 1) {
            int pick = 0; /* the only play, or the heaviest tile (at its first end) */
            for (int i = 1; i < count; i++)
                if (ts[i] > ts[pick])
                    pick = i;
            t = ts[pick];
            end = ends[pick];
            e = edge_of(tr, node, key_of(turn, t, end));
            if (e >= 0)
                tr->edges[e].avail++;
        } else {
            e = select_edge(tr, node, ts, ends, count, turn, h, st.hands[(turn + 1) % r->n],
                            st.left, st.right, c);
            if (e >= 0) {
                t = tr->edges[e].key >> 2 & 63;
                end = tr->edges[e].key & 3;
            }
        }
        if (e < 0)
            return -1;
    }
    for (int i = 0; i < depth; i++) {
        Edge *pe = &tr->edges[path_edge[i]];
        pe->visits++;
        pe->total += vals[path_side[i]];
    }
    double mine = vals[tr->values.side_of[tr->me]];
    tr->returns_n++;
    tr->returns_total += mine;
    tr->returns_squares += mine * mine;
    return 0;
}

/* ---- the Python type ---- */

/* ``count`` masks of a Python sequence. */
static int read_masks(PyObject *seq, uint32_t *out, int count, const char *what) {
    long values[28];
    if (count > 28) {
        PyErr_Format(PyExc_ValueError, "%s: at most 28 items", what);
        return -1;
    }
    if (read_ints(seq, values, count, what))
        return -1;
    for (int i = 0; i < count; i++) {
        if (values[i] < 0 || values[i] >= 1L << 28) {
            PyErr_Format(PyExc_ValueError, "%s: not a set of tiles", what);
            return -1;
        }
        out[i] = (uint32_t)values[i];
    }
    return 0;
}

static void Tree_dealloc(Tree *self) {
    PyMem_Free(self->edges);
    PyMem_Free(self->nodes);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Tree(n, me, side_of, left, right, stop, draw_one, c_puct, prior, two, scorers): the root
 * of a decision's search. ``scorers`` holds one tuple per side valued: (side, kozel, goat,
 * winner_takes, penalties, fish_all, target, eggs, lone00, lone66, scores, bonus). */
static int Tree_init(Tree *self, PyObject *args, PyObject *kwds) {
    int n, me, left, right, stop, draw_one, two;
    double c_puct;
    PyObject *side_of, *prior, *scorers;
    static char *kwlist[] = {"n",     "me",     "side_of", "left", "right",   "stop",
                             "draw_one", "c_puct", "prior", "two", "scorers", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iiOiiipdOpO", kwlist, &n, &me, &side_of, &left,
                                     &right, &stop, &draw_one, &c_puct, &prior, &two, &scorers))
        return -1;
    if (!tables_set) {
        PyErr_SetString(PyExc_RuntimeError, "tables() first");
        return -1;
    }
    self->n_nodes = 0; /* unusable until this init succeeds */
    if (n < 2 || n > MAX_SEATS || me < 0 || me >= n || stop < 0 || stop > 28) {
        PyErr_SetString(PyExc_ValueError, "n, me or stop out of range");
        return -1;
    }
    if (left < -1 || left > 6 || right < -1 || right > 6 || (left < 0) != (right < 0)) {
        PyErr_SetString(PyExc_ValueError, "left, right: the ends, 0-6, or both -1 (no line)");
        return -1;
    }
    long sides_of[MAX_SEATS];
    if (read_ints(side_of, sides_of, n, "side_of"))
        return -1;
    Values *v = &self->values;
    v->n = n;
    v->sides = 0;
    for (int i = 0; i < n; i++) {
        if (sides_of[i] < 0 || sides_of[i] >= n) {
            PyErr_SetString(PyExc_ValueError, "side_of out of range");
            return -1;
        }
        v->side_of[i] = (int)sides_of[i];
        if (v->side_of[i] + 1 > v->sides)
            v->sides = v->side_of[i] + 1;
    }
    v->two = two;
    v->me_side = v->side_of[me];
    if (read_floats(prior, self->prior, PRIORS, "prior"))
        return -1;
    PyObject *fast = PySequence_Fast(scorers, "scorers");
    if (fast == NULL)
        return -1;
    v->count = (int)PySequence_Fast_GET_SIZE(fast);
    if (two ? v->sides != 2 || v->count != 1 : v->count != v->sides) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError,
                        "scorers: the seat's side's alone for two sides, else every side's");
        return -1;
    }
    for (int i = 0; i < v->count; i++) {
        Scorer *s = &v->scorers[i];
        PyObject *scores;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, i), "ipppppllllOd", &s->side,
                              &s->kozel, &s->goat, &s->winner_takes, &s->penalties,
                              &s->fish_all, &s->target, &s->eggs, &s->lone00, &s->lone66,
                              &scores, &s->bonus) ||
            read_ints(scores, s->scores, v->sides, "scores")) {
            Py_DECREF(fast);
            return -1;
        }
        if (s->side != (two ? v->me_side : i)) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "scorers: sides out of order");
            return -1;
        }
    }
    Py_DECREF(fast);
    self->rules.n = n;
    self->rules.stop = stop;
    self->rules.draw_one = draw_one;
    self->me = me;
    self->left = left;
    self->right = right;
    self->c_puct = c_puct;
    self->n_edges = self->n_nodes = 0;
    self->returns_n = 0;
    self->returns_total = self->returns_squares = 0.0;
    self->tree = self->plays = self->played = 0;
    return new_node(self) < 0 ? -1 : 0;
}

/* deal(hands, bone, moves, heavy): every root move of ``moves`` played on this deal in turn. */
static PyObject *Tree_deal(Tree *self, PyObject *args) {
    PyObject *hands, *bone, *root_moves;
    unsigned long heavy;
    if (!PyArg_ParseTuple(args, "OOOk", &hands, &bone, &root_moves, &heavy))
        return NULL;
    State st;
    if (self->n_nodes == 0) {
        PyErr_SetString(PyExc_RuntimeError, "the tree was not made");
        return NULL;
    }
    if (read_masks(hands, st.hands, self->rules.n, "hands"))
        return NULL;
    Py_ssize_t bones = PySequence_Size(bone);
    if (bones < 0)
        return NULL;
    if (bones > 28 || bones < self->rules.stop) {
        PyErr_SetString(PyExc_ValueError, "bone: fewer tiles than drawing may take");
        return NULL;
    }
    if (read_masks(bone, self->rules.bone, (int)bones, "bone"))
        return NULL;
    for (Py_ssize_t i = 0; i < bones; i++)
        if (self->rules.bone[i] >= 28) {
            PyErr_SetString(PyExc_ValueError, "bone: not a tile");
            return NULL;
        }
    st.left = self->left;
    st.right = self->right;
    st.drawn = 0;
    PyObject *fast = PySequence_Fast(root_moves, "moves");
    if (fast == NULL)
        return NULL;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(fast);
    int ts[MAX_LEGAL], ends[MAX_LEGAL];
    if (count > MAX_LEGAL) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "moves: more than a hand has");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < count; i++) { /* every move checked before the tree changes */
        int t, end;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, i), "ii", &t, &end)) {
            Py_DECREF(fast);
            return NULL;
        }
        if (t < 0 || t > 27 || !(st.hands[self->me] >> t & 1) ||
            (st.left >= 0 && (end < 0 || end > 1 || OTHER[t][end ? st.right : st.left] < 0))) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "moves: (%d, %d) is not a play of the seat's hand", t,
                         end);
            return NULL;
        }
        ts[i] = t;
        ends[i] = end;
    }
    Py_DECREF(fast);
    for (Py_ssize_t i = 0; i < count; i++)
        if (iterate(self, st, ts[i], ends[i], (uint32_t)heavy))
            return NULL;
    Py_RETURN_NONE;
}

/* root() -> {key: (visits, avail, total)}: the root's edges. */
static PyObject *Tree_root(Tree *self, PyObject *unused) {
    if (self->n_nodes == 0) {
        PyErr_SetString(PyExc_RuntimeError, "the tree was not made");
        return NULL;
    }
    PyObject *out = PyDict_New();
    if (out == NULL)
        return NULL;
    for (int32_t e = self->nodes[0].head; e >= 0; e = self->edges[e].next) {
        const Edge *edge = &self->edges[e];
        PyObject *k = PyLong_FromLong(edge->key);
        PyObject *v = Py_BuildValue("(iid)", edge->visits, edge->avail, edge->total);
        if (k == NULL || v == NULL || PyDict_SetItem(out, k, v)) {
            Py_XDECREF(k);
            Py_XDECREF(v);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(k);
        Py_DECREF(v);
    }
    return out;
}

/* work() -> (tree, plays, played): the counts of ``Work`` this tree did so far. */
static PyObject *Tree_work(Tree *self, PyObject *unused) {
    return Py_BuildValue("(LLL)", self->tree, self->plays, self->played);
}

static PyMethodDef Tree_methods[] = {
    {"deal", (PyCFunction)Tree_deal, METH_VARARGS, "Every root move played on one deal."},
    {"root", (PyCFunction)Tree_root, METH_NOARGS, "The root's edges: {key: (visits, avail, total)}."},
    {"work", (PyCFunction)Tree_work, METH_NOARGS, "(tree, plays, played) so far."},
    {NULL}};

PyTypeObject TreeType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "doublesix.bots._native.Tree",
    .tp_doc = "One decision's information-set tree (see ismcts.Search).",
    .tp_basicsize = sizeof(Tree),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Tree_init,
    .tp_dealloc = (destructor)Tree_dealloc,
    .tp_methods = Tree_methods,
};

