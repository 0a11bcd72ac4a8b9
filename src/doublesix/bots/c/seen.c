/* Weighing a sampled deal by the fitted model of the others' choices.
 *
 * The mirror of ``fitted.FittedModel.log_likelihood`` (with ``sampler.choices``): the log
 * of the chance that the others, holding the deal's hands, chose the plays they were seen
 * to choose. A ``Seen`` holds one decision's knowledge (the plays seen and the draws kept)
 * and the model's weights; ``log_likelihood`` weighs one deal.
 */
#include <math.h>

#include "native.h"

typedef struct {
    int seat, index, tile, left, right;
} Decision;

typedef struct {
    int index, group;
} Draw;

#define NET_IN 14
#define NET_HIDDEN 16

/* What everyone saw when a decision was made (``choice_net.Public``): the tiles on the line,
 * the numbers the chooser's next seat and its partner were known to lack (pip masks), and
 * the tiles left in the boneyard. */
typedef struct {
    uint32_t played;
    int next_void, partner_void, boneyard;
} Public;

typedef struct {
    PyObject_HEAD
    int players, count;
    Decision *decisions;
    int draws[MAX_SEATS];
    Draw *drawn_by[MAX_SEATS];
    double base[28];
    double w_kept, w_open, noise;
    /* ``choice_net.NetModel``: with ``net``, each choice is scored by the network. */
    int net;
    Public *public;
    double w1[NET_IN * NET_HIDDEN], b1[NET_HIDDEN], w2[NET_HIDDEN];
    /* ``fitted.style_mix``: with ``styled``, each seat is one of three players, unknown (per
     * seat, the log of each one's prior share: as the model says, heaviest first, at random). */
    int styled;
    double log_styles[MAX_SEATS][3], slip;
} Seen;

static void Seen_dealloc(Seen *self) {
    PyMem_Free(self->decisions);
    PyMem_Free(self->public);
    for (int s = 0; s < MAX_SEATS; s++)
        PyMem_Free(self->drawn_by[s]);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* The network's weights and each decision's public state (-1 with an exception set). */
static int read_net(Seen *self, PyObject *net, PyObject *public) {
    PyObject *w1, *b1, *w2;
    if (!PyArg_ParseTuple(net, "OOO", &w1, &b1, &w2) ||
        read_floats(w1, self->w1, NET_IN * NET_HIDDEN, "w1") ||
        read_floats(b1, self->b1, NET_HIDDEN, "b1") || read_floats(w2, self->w2, NET_HIDDEN, "w2"))
        return -1;
    PyObject *fast = PySequence_Fast(public, "public");
    if (fast == NULL)
        return -1;
    if (PySequence_Fast_GET_SIZE(fast) != self->count) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "public: one row per decision");
        return -1;
    }
    PyMem_Free(self->public);
    self->public = PyMem_Calloc((size_t)self->count + 1, sizeof(Public));
    if (self->public == NULL) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return -1;
    }
    long row[4];
    for (int i = 0; i < self->count; i++) {
        if (read_ints(PySequence_Fast_GET_ITEM(fast, i), row, 4, "public")) {
            Py_DECREF(fast);
            return -1;
        }
        if (row[0] < 0 || row[0] >= 1L << 28 || row[1] < 0 || row[1] > 127 || row[2] < 0 ||
            row[2] > 127 || row[3] < 0 || row[3] > 28) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "public: played, voids or boneyard out of range");
            return -1;
        }
        self->public[i].played = (uint32_t)row[0];
        self->public[i].next_void = (int)row[1];
        self->public[i].partner_void = (int)row[2];
        self->public[i].boneyard = (int)row[3];
    }
    Py_DECREF(fast);
    return 0;
}

/* ``styles`` as (per seat its (model, heaviest, uniform) log shares, slip) (-1 with an
 * exception set). */
static int read_styles(Seen *self, PyObject *styles) {
    PyObject *seats;
    if (!PyArg_ParseTuple(styles, "Od", &seats, &self->slip))
        return -1;
    if (!(self->slip > 0.0 && self->slip < 1.0)) {
        PyErr_SetString(PyExc_ValueError, "styles: the slip is a chance, above 0, below 1");
        return -1;
    }
    PyObject *fast = items_of(seats, self->players, "styles");
    int s = 0;
    for (; fast != NULL && s < self->players; s++)
        if (read_floats(PySequence_Fast_GET_ITEM(fast, s), self->log_styles[s], 3, "styles"))
            break;
    Py_XDECREF(fast);
    if (fast == NULL || s < self->players)
        return -1;
    self->styled = 1;
    return 0;
}

/* Seen(players, decisions, drawn_by, base, w_kept, w_open, noise, public=None, net=None,
 * styles=None): ``decisions`` as (seat, index, tile, left, right), ``drawn_by`` per seat as
 * (index, group), oldest first; with ``net`` (w1 row by row, b1, w2), ``public`` holds each
 * decision's (played, next_void, partner_void, boneyard) and the network scores the choices;
 * with ``styles`` (per seat, the logs of the three styles' shares; the heaviest-first one's
 * slip) each seat's choices are weighed as ``fitted.style_mix`` weighs them. */
static int Seen_init(Seen *self, PyObject *args, PyObject *kwds) {
    PyObject *decisions, *drawn_by, *base, *public = Py_None, *net = Py_None, *styles = Py_None;
    static char *kwlist[] = {"players", "decisions", "drawn_by", "base",   "w_kept", "w_open",
                             "noise",   "public",    "net",      "styles", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iOOOddd|OOO", kwlist, &self->players,
                                     &decisions, &drawn_by, &base, &self->w_kept, &self->w_open,
                                     &self->noise, &public, &net, &styles))
        return -1;
    self->styled = 0;
    if (!tables_set) {
        PyErr_SetString(PyExc_RuntimeError, "tables() first");
        return -1;
    }
    if (self->players < 2 || self->players > MAX_SEATS) {
        PyErr_SetString(PyExc_ValueError, "players out of range");
        return -1;
    }
    if (styles != Py_None && read_styles(self, styles))
        return -1;
    long row[5];
    if (read_floats(base, self->base, 28, "base"))
        return -1;
    PyObject *fast = PySequence_Fast(decisions, "decisions");
    if (fast == NULL)
        return -1;
    self->count = (int)PySequence_Fast_GET_SIZE(fast);
    PyMem_Free(self->decisions);
    self->decisions = PyMem_Calloc((size_t)self->count + 1, sizeof(Decision));
    if (self->decisions == NULL) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return -1;
    }
    for (int i = 0; i < self->count; i++) {
        Decision *d = &self->decisions[i];
        if (read_ints(PySequence_Fast_GET_ITEM(fast, i), row, 5, "decision")) {
            Py_DECREF(fast);
            return -1;
        }
        d->seat = (int)row[0];
        d->index = (int)row[1];
        d->tile = (int)row[2];
        d->left = (int)row[3];
        d->right = (int)row[4];
        if (d->seat < 0 || d->seat >= self->players || d->tile < 0 || d->tile >= 28 ||
            d->left < -1 || d->left > 6 || d->right < -1 || d->right > 6) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "decision: seat, tile or end out of range");
            return -1;
        }
    }
    Py_DECREF(fast);
    self->net = 0;
    if (net != Py_None) {
        if (read_net(self, net, public))
            return -1;
        self->net = 1;
    }
    fast = PySequence_Fast(drawn_by, "drawn_by");
    if (fast == NULL)
        return -1;
    if (PySequence_Fast_GET_SIZE(fast) != self->players) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "drawn_by: one list per seat");
        return -1;
    }
    for (int s = 0; s < self->players; s++) {
        PyObject *seat = PySequence_Fast(PySequence_Fast_GET_ITEM(fast, s), "drawn_by");
        if (seat == NULL) {
            Py_DECREF(fast);
            return -1;
        }
        int count = (int)PySequence_Fast_GET_SIZE(seat);
        PyMem_Free(self->drawn_by[s]);
        self->drawn_by[s] = PyMem_Calloc((size_t)count + 1, sizeof(Draw));
        self->draws[s] = count;
        if (self->drawn_by[s] == NULL) {
            Py_DECREF(seat);
            Py_DECREF(fast);
            PyErr_NoMemory();
            return -1;
        }
        for (int i = 0; i < count; i++) {
            if (read_ints(PySequence_Fast_GET_ITEM(seat, i), row, 2, "draw")) {
                Py_DECREF(seat);
                Py_DECREF(fast);
                return -1;
            }
            self->drawn_by[s][i].index = (int)row[0];
            self->drawn_by[s][i].group = (int)row[1];
        }
        Py_DECREF(seat);
    }
    Py_DECREF(fast);
    return 0;
}

/* ``fitted.log_chance``: the log of the chance of ``tile`` among the ``count`` scored tiles,
 * a softmax of their scores mixed with ``noise`` of a uniform choice. */
static double log_chance(const double *scores, const int *tiles, int count, int tile,
                         double noise) {
    double top = scores[0], z = 0.0, chosen = 0.0;
    int i;
    for (i = 1; i < count; i++)
        if (scores[i] > top)
            top = scores[i];
    for (i = 0; i < count; i++) {
        z += exp(scores[i] - top);
        if (tiles[i] == tile)
            chosen = scores[i];
    }
    double p = exp(chosen - top) / z;
    return log(noise / count + (1.0 - noise) * p);
}

/* ``FittedModel.log_p``: the log of the chance of playing ``d``'s tile from ``hand``. */
static double log_p(const Seen *self, const Decision *d, uint32_t hand, uint32_t playable) {
    double scores[28];
    int tiles[28], count = 0;
    uint32_t q = playable;
    while (q) {
        uint32_t low = q & -q;
        int x = low_bit(q), kept, opened;
        q ^= low;
        uint32_t rest = hand ^ low;
        if (d->left < 0) {
            kept = popcount(rest & (SUIT[LOW[x]] | SUIT[HIGH[x]]));
            opened = popcount(rest & SUIT[HIGH[x]]);
        } else {
            int ends[2][2] = {{d->left, d->right}, {d->right, d->left}};
            kept = opened = -1;
            for (int e = 0; e < 2; e++)
                if (SUIT[ends[e][0]] & low) {
                    int fresh = OTHER[x][ends[e][0]];
                    int k = popcount(rest & (SUIT[fresh] | SUIT[ends[e][1]]));
                    if (k > kept) {
                        kept = k;
                        opened = popcount(rest & SUIT[fresh]);
                    }
                }
        }
        tiles[count] = x;
        scores[count++] = self->base[x] + self->w_kept * kept + self->w_open * opened;
    }
    return log_chance(scores, tiles, count, d->tile, self->noise);
}

/* ``choice_net.NetModel.log_p``: the network's log chance of ``d``'s tile from ``hand``. */
static double log_p_net(const Seen *self, const Decision *d, const Public *pub, uint32_t hand,
                        uint32_t playable) {
    double scores[28], x[NET_IN];
    int tiles[28], count = 0, i, j;
    uint32_t unseen = ((1u << 28) - 1) & ~hand & ~pub->played;
    double size = (double)popcount(hand), doubles = (double)popcount(hand & DOUBLES);
    uint32_t q = playable;
    while (q) {
        uint32_t low = q & -q;
        int t = low_bit(q), options[2][2], n_options = 0, best = -1, best_kept = -1;
        q ^= low;
        uint32_t rest = hand ^ low;
        if (d->left < 0) {
            options[0][0] = HIGH[t];
            options[0][1] = LOW[t];
            n_options = 1;
        } else {
            if (SUIT[d->left] & low) {
                options[n_options][0] = OTHER[t][d->left];
                options[n_options++][1] = d->right;
            }
            if (SUIT[d->right] & low) {
                options[n_options][0] = OTHER[t][d->right];
                options[n_options++][1] = d->left;
            }
        }
        for (i = 0; i < n_options; i++) {
            int k = popcount(rest & (SUIT[options[i][0]] | SUIT[options[i][1]]));
            if (k > best_kept) {
                best_kept = k;
                best = i;
            }
        }
        int fresh = options[best][0], other_end = options[best][1];
        x[0] = VALUE[t] / 6.0;
        x[1] = DOUBLES & low ? 1.0 : 0.0;
        x[2] = best_kept / 7.0;
        x[3] = popcount(rest & SUIT[fresh]) / 7.0;
        x[4] = popcount(unseen & SUIT[fresh]) / 7.0;
        x[5] = popcount(unseen & SUIT[other_end]) / 7.0;
        x[6] = pub->next_void >> fresh & 1 && pub->next_void >> other_end & 1 ? 1.0 : 0.0;
        x[7] = pub->next_void >> fresh & 1 ? 1.0 : 0.0;
        x[8] = pub->partner_void >> fresh & 1 ? 1.0 : 0.0;
        x[9] = size / 7.0;
        x[10] = VALUE[t] / 6.0 * size / 7.0;
        x[11] = doubles / 7.0;
        x[12] = popcount(rest & (SUIT[LOW[t]] | SUIT[HIGH[t]])) / 7.0;
        x[13] = pub->boneyard / 14.0;
        double score = 0.0;
        for (j = 0; j < NET_HIDDEN; j++) {
            double a = self->b1[j];
            for (i = 0; i < NET_IN; i++)
                a += x[i] * self->w1[i * NET_HIDDEN + j];
            score += tanh(a) * self->w2[j];
        }
        tiles[count] = t;
        scores[count++] = score;
    }
    return log_chance(scores, tiles, count, d->tile, self->noise);
}

/* log_likelihood(hands, groups): the deal's log weight (``FittedModel.log_likelihood``). */
static PyObject *Seen_log_likelihood(Seen *self, PyObject *args) {
    PyObject *hands_seq, *groups;
    long hands[MAX_SEATS];
    uint32_t later[MAX_SEATS] = {0}, drawn_after[MAX_SEATS] = {0};
    int left_to_undo[MAX_SEATS];
    double total = 0.0, model[MAX_SEATS] = {0.0}, heaviest[MAX_SEATS] = {0.0},
           uniform[MAX_SEATS] = {0.0}, slip_hit = log(1.0 - self->slip);
    if (!PyArg_ParseTuple(args, "OO", &hands_seq, &groups) ||
        read_ints(hands_seq, hands, self->players, "hands"))
        return NULL;
    for (int s = 0; s < self->players; s++)
        left_to_undo[s] = self->draws[s];
    for (int i = self->count - 1; i >= 0; i--) {
        const Decision *d = &self->decisions[i];
        int s = d->seat;
        later[s] |= 1u << d->tile;
        while (left_to_undo[s] && self->drawn_by[s][left_to_undo[s] - 1].index > d->index) {
            int g = self->drawn_by[s][--left_to_undo[s]].group;
            PyObject *seat = PySequence_GetItem(groups, s);
            PyObject *mask = seat == NULL ? NULL : PySequence_GetItem(seat, g);
            Py_XDECREF(seat);
            if (mask == NULL)
                return NULL;
            long m = PyLong_AsLong(mask);
            Py_DECREF(mask);
            if (m == -1 && PyErr_Occurred())
                return NULL;
            drawn_after[s] |= (uint32_t)m;
        }
        uint32_t hand = ((uint32_t)hands[s] & ~drawn_after[s]) | later[s];
        uint32_t playable = d->left < 0 ? hand : hand & (SUIT[d->left] | SUIT[d->right]);
        if ((playable & (playable - 1)) == 0)
            continue;
        double p = self->net ? log_p_net(self, d, &self->public[i], hand, playable)
                             : log_p(self, d, hand, playable);
        if (!self->styled) {
            total += p;
            continue;
        }
        int count = popcount(playable);
        model[s] += p;
        heaviest[s] += top_bit(playable) == d->tile ? slip_hit : log(self->slip / (count - 1));
        uniform[s] -= log((double)count);
    }
    if (self->styled)
        for (int s = 0; s < self->players; s++) {
            const double *prior = self->log_styles[s];
            double x = prior[0] + model[s], y = prior[1] + heaviest[s], w = prior[2] + uniform[s];
            double top = x > y ? (x > w ? x : w) : (y > w ? y : w);
            total += top + log(exp(x - top) + exp(y - top) + exp(w - top));
        }
    return PyFloat_FromDouble(total);
}

static PyMethodDef Seen_methods[] = {
    {"log_likelihood", (PyCFunction)Seen_log_likelihood, METH_VARARGS,
     "The deal's log weight: log_likelihood(hands, groups)."},
    {NULL}};

PyTypeObject SeenType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "doublesix.bots._native.Seen",
    .tp_doc = "The plays seen by one decision, to weigh its sampled deals (see fitted.py).",
    .tp_basicsize = sizeof(Seen),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Seen_init,
    .tp_dealloc = (destructor)Seen_dealloc,
    .tp_methods = Seen_methods,
};
