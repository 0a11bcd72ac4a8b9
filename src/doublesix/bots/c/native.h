/* The bots' C core (the extension ``doublesix.bots._native``): what its files share.
 *
 * Each file mirrors a piece of Python that stays the reference and runs where the core is
 * not built (``DOUBLESIX_PURE``): ``tree.c`` ``ismcts.Search.iterate``, ``seen.c``
 * ``fitted.FittedModel.log_likelihood``. A mirror does exactly what its Python does, in the
 * same order and with the same floating-point operations, so that a bot makes the same
 * moves with or without the core (``tests/test_native.py``); only sooner.
 *
 * Tiles are indices 0-27 in R3's weight order and a hand is a mask of them, as in
 * ``doublesix.tiles``, whose tables ``module.c``'s ``tables()`` copies in once.
 */
#ifndef DOUBLESIX_NATIVE_H
#define DOUBLESIX_NATIVE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#define MAX_SEATS 4

extern uint32_t SUIT[7];
extern int OTHER[28][7];
extern int VALUE[28];
extern uint32_t DOUBLES;
extern int LOW[28];
extern int HIGH[28];
extern int tables_set;

extern PyTypeObject TreeType;
extern PyTypeObject SeenType;

static inline int popcount(uint32_t x) { return __builtin_popcount(x); }
static inline int top_bit(uint32_t x) { return 31 - __builtin_clz(x); }
static inline int low_bit(uint32_t x) { return __builtin_ctz(x); }

/* ``seq`` as a fast sequence of exactly ``count`` items (NULL with an exception set). */
PyObject *items_of(PyObject *seq, int count, const char *what);

/* ``count`` ints of a Python sequence (-1 with an exception set: not a sequence, another
 * length, or not ints). */
int read_ints(PyObject *seq, long *out, int count, const char *what);

/* ``count`` floats of a Python sequence (-1 with an exception set, as ``read_ints``). */
int read_floats(PyObject *seq, double *out, int count, const char *what);

#endif
