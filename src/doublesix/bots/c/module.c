/* The extension ``doublesix.bots._native``: the tiles' tables and the types of the core. */
#include "native.h"

uint32_t SUIT[7];
int OTHER[28][7];
int VALUE[28];
uint32_t DOUBLES;
int LOW[28];
int HIGH[28];
int tables_set = 0;

PyObject *items_of(PyObject *seq, int count, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (fast != NULL && PySequence_Fast_GET_SIZE(fast) != count) {
        PyErr_Format(PyExc_ValueError, "%s: %d items expected", what, count);
        Py_CLEAR(fast);
    }
    return fast;
}

int read_ints(PyObject *seq, long *out, int count, const char *what) {
    PyObject *fast = items_of(seq, count, what);
    int i = 0;
    for (; fast != NULL && i < count; i++)
        if ((out[i] = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i))) == -1 && PyErr_Occurred())
            break;
    Py_XDECREF(fast);
    return fast != NULL && i == count ? 0 : -1;
}

int read_floats(PyObject *seq, double *out, int count, const char *what) {
    PyObject *fast = items_of(seq, count, what);
    int i = 0;
    for (; fast != NULL && i < count; i++)
        if ((out[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(fast, i))) == -1.0 &&
            PyErr_Occurred())
            break;
    Py_XDECREF(fast);
    return fast != NULL && i == count ? 0 : -1;
}

/* tables(suit, other, value, doubles, low, high): ``doublesix.tiles``' tables, once. */
static PyObject *tables(PyObject *module, PyObject *args) {
    PyObject *suit, *other, *value, *low, *high;
    unsigned long doubles;
    long row[28];
    if (!PyArg_ParseTuple(args, "OOOkOO", &suit, &other, &value, &doubles, &low, &high))
        return NULL;
    if (read_ints(suit, row, 7, "suit"))
        return NULL;
    for (int p = 0; p < 7; p++)
        SUIT[p] = (uint32_t)row[p];
    PyObject *rows = PySequence_Fast(other, "other");
    if (rows == NULL)
        return NULL;
    if (PySequence_Fast_GET_SIZE(rows) != 28) {
        Py_DECREF(rows);
        PyErr_SetString(PyExc_ValueError, "other: 28 rows expected");
        return NULL;
    }
    for (int t = 0; t < 28; t++) {
        if (read_ints(PySequence_Fast_GET_ITEM(rows, t), row, 7, "other")) {
            Py_DECREF(rows);
            return NULL;
        }
        for (int p = 0; p < 7; p++)
            OTHER[t][p] = (int)row[p];
    }
    Py_DECREF(rows);
    if (read_ints(value, row, 28, "value"))
        return NULL;
    for (int t = 0; t < 28; t++)
        VALUE[t] = (int)row[t];
    if (read_ints(low, row, 28, "low"))
        return NULL;
    for (int t = 0; t < 28; t++)
        LOW[t] = (int)row[t];
    if (read_ints(high, row, 28, "high"))
        return NULL;
    for (int t = 0; t < 28; t++)
        HIGH[t] = (int)row[t];
    DOUBLES = (uint32_t)doubles;
    tables_set = 1;
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"tables", tables, METH_VARARGS, "The tiles' tables, from doublesix.tiles."},
    {NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_native",
                                    "The bots' C core (see doublesix.bots.native).", -1,
                                    module_methods};

static int add_type(PyObject *m, PyTypeObject *type, const char *name) {
    if (PyType_Ready(type) < 0)
        return -1;
    Py_INCREF(type);
    if (PyModule_AddObject(m, name, (PyObject *)type) < 0) {
        Py_DECREF(type);
        return -1;
    }
    return 0;
}

PyMODINIT_FUNC PyInit__native(void) {
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    if (add_type(m, &TreeType, "Tree") || add_type(m, &SeenType, "Seen")) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
