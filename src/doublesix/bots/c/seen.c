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

typedef struct {
    PyObject_HEAD
    int players, count;
    Decision *decisions;
    int draws[MAX_SEATS];
    Draw *drawn_by[MAX_SEATS];
    double base[28];
    double w_kept, w_open, noise;
} Seen;

static void Seen_dealloc(Seen *self) {
    PyMem_Free(self->decisions);
    for (int s = 0; s < MAX_SEATS; s++)
        PyMem_Free(self->drawn_by[s]);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Seen(players, decisions, drawn_by, base, w_kept, w_open, noise): ``decisions`` as (seat,
 * index, tile, left, right), ``drawn_by`` per seat as (index, group), oldest first. */
static int Seen_init(Seen *self, PyObject *args, PyObject *kwds) {
    PyObject *decisions, *drawn_by, *base;
    static char *kwlist[] = {"players", "decisions", "drawn_by", "base",
                             "w_kept",  "w_open",    "noise",    NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iOOOddd", kwlist, &self->players, &decisions,
                                     &drawn_by, &base, &self->w_kept, &self->w_open,
                                     &self->noise))
        return -1;
    if (!tables_set) {
        PyErr_SetString(PyExc_RuntimeError, "tables() first");
        return -1;
    }
    if (self->players < 2 || self->players > MAX_SEATS) {
        PyErr_SetString(PyExc_ValueError, "players out of range");
        return -1;
    }
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

/* ``FittedModel.log_p``: the log of the chance of playing ``d``'s tile from ``hand``. */
static double log_p(const Seen *self, const Decision *d, uint32_t hand, uint32_t playable) {
    double scores[28];
    int tiles[28], count = 0, i;
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
    double top = scores[0], z = 0.0, chosen = 0.0;
    for (i = 1; i < count; i++)
        if (scores[i] > top)
            top = scores[i];
    for (i = 0; i < count; i++) {
        z += exp(scores[i] - top);
        if (tiles[i] == d->tile)
            chosen = scores[i];
    }
    double p = exp(chosen - top) / z;
    return log(self->noise / count + (1.0 - self->noise) * p);
}

/* log_likelihood(hands, groups): the deal's log weight (``FittedModel.log_likelihood``). */
static PyObject *Seen_log_likelihood(Seen *self, PyObject *args) {
    PyObject *hands_seq, *groups;
    long hands[MAX_SEATS];
    uint32_t later[MAX_SEATS] = {0}, drawn_after[MAX_SEATS] = {0};
    int left_to_undo[MAX_SEATS];
    double total = 0.0;
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
        if (playable & (playable - 1))
            total += log_p(self, d, hand, playable);
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
