// Optional native fast path for paddle_compat's dygraph view ops (issue 29): reshape, transpose, unsqueeze, slice
// and basic indexing of a plain `paddle.Tensor`, done in C without torch's Python argument parser.
// Also Paddle's hard_swish and hard_sigmoid gradients in one vectorized pass each, split across torch's intra-op
// threads (hard_swish_grad, hard_sigmoid_grad), batch norm's running-statistics update in one call
// (batch_norm_stats_update), 2-D max pooling with torch's values and indices vectorized along output rows
// (max_pool2d), and the Momentum optimizer's update of many parameters in one call and one pass over each tensor
// (momentum_update), at the end.
//
// Each function returns a new `paddle.Tensor` for the common call, or None when the call is not the simple case
// (another mode, AMP, an integer gradient, a Tensor subclass, a __torch_function__ mode, arguments of other types,
// or an error from ATen): the caller then runs the pure-Python path unchanged, which gives Paddle's result or error.
// Built by tools/build_native.py (`make setup`) against the installed torch; loaded by ./__init__.py.
#include <Python.h>
#include <structmember.h>

#include <ATen/Parallel.h>
#include <ATen/PythonTorchFunctionTLS.h>
#include <ATen/TensorIterator.h>
#include <ATen/core/Tensor.h>
#include <ATen/MemoryOverlap.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/empty_like.h>
#include <c10/core/GradMode.h>
#include <c10/core/impl/TorchDispatchModeTLS.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

// From torch/csrc/autograd/python_variable.h (libtorch_python), declared here: that header pulls in pybind11 and
// takes ~9x longer to compile. tools/build_native.py imports and probes the built module before keeping it, and
// configure() checks the layout on a known tensor.
struct THPVariable {
  PyObject_HEAD
  at::Tensor cdata;
};
extern PyObject* THPVariableClass;
extern PyObject* ParameterClass;
PyObject* THPVariable_Wrap(const at::TensorBase& var);

#ifndef PADDLE_COMPAT_TORCH_VERSION
#define PADDLE_COMPAT_TORCH_VERSION "unknown"
#endif

namespace {

constexpr Py_ssize_t kMaxDims = 64;  // torch's own limit on a tensor's rank

PyTypeObject* tensor_type = nullptr;  // paddle_compat's Tensor (exact type only)
Py_ssize_t off_t = -1, off_name = -1, off_persistable = -1;  // its slots
PyObject* mode = nullptr;  // engine.core.mode.MODE
Py_ssize_t off_static = -1;
PyObject* amp_ops = nullptr;  // dispatch.AMP_OP_DTYPES: a dict, empty unless AMP is on
PyObject* int_grad = nullptr;  // tensor.INT_GRAD: [bool]
PyObject* zero_d = nullptr;  // ops.common.scalar_shape: a 0-D indexing result's shape rule
bool layout_ok = false;
bool enabled = true;

inline PyObject*& slot(PyObject* o, Py_ssize_t off) {
  return *reinterpret_cast<PyObject**>(reinterpret_cast<char*>(o) + off);
}

inline bool ready() {
  return enabled && layout_ok && tensor_type && mode && amp_ops && int_grad;
}

// x's torch tensor when the call may run here (the preconditions of the Python shortcuts), else nullptr
inline PyObject* plain(PyObject* x, bool check_amp) {
  if (!ready() || Py_TYPE(x) != tensor_type) return nullptr;
  if (slot(mode, off_static) != Py_False) return nullptr;
  if (check_amp && PyDict_GET_SIZE(amp_ops) != 0) return nullptr;
  if (PyList_GET_SIZE(int_grad) < 1 || PyList_GET_ITEM(int_grad, 0) != Py_False) return nullptr;
  PyObject* t = slot(x, off_t);
  if (t == nullptr) return nullptr;
  // what torch's own binding would not hand to __torch_function__ (python_arg_parser's check_has_torch_function)
  PyTypeObject* tt = Py_TYPE(t);
  if (tt != reinterpret_cast<PyTypeObject*>(THPVariableClass) &&
      tt != reinterpret_cast<PyTypeObject*>(ParameterClass))
    return nullptr;
  if (at::impl::torch_function_mode_enabled()) return nullptr;
  return t;
}

inline const at::Tensor& unpack(PyObject* t) { return reinterpret_cast<THPVariable*>(t)->cdata; }

// a new paddle Tensor around the torch tensor object `t` (a reference this steals): Tensor._wrap
PyObject* wrap_obj(PyObject* t) {
  PyObject* out = tensor_type->tp_alloc(tensor_type, 0);
  if (out == nullptr) {
    Py_DECREF(t);
    return nullptr;
  }
  slot(out, off_t) = t;
  Py_INCREF(Py_None);
  slot(out, off_name) = Py_None;
  Py_INCREF(Py_False);
  slot(out, off_persistable) = Py_False;
  return out;
}

PyObject* wrap(const at::Tensor& r) {
  PyObject* t = THPVariable_Wrap(r);
  if (t == nullptr) {
    PyErr_Clear();
    Py_RETURN_NONE;
  }
  return wrap_obj(t);
}

// an exact int that fits int64 (not bool, no __index__ objects: the Python path takes those)
inline bool as_int(PyObject* v, int64_t* out) {
  if (!PyLong_CheckExact(v)) return false;
  int overflow = 0;
  long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
  if (overflow || (x == -1 && PyErr_Occurred())) {
    PyErr_Clear();
    return false;
  }
  *out = static_cast<int64_t>(x);
  return true;
}

// a list of exact ints into dims; false for anything else
inline bool int_list(PyObject* v, int64_t* dims, Py_ssize_t* n) {
  if (!PyList_CheckExact(v)) return false;
  *n = PyList_GET_SIZE(v);
  if (*n > kMaxDims) return false;
  for (Py_ssize_t i = 0; i < *n; ++i)
    if (!as_int(PyList_GET_ITEM(v, i), &dims[i])) return false;
  return true;
}

PyObject* declined() {
  if (PyErr_Occurred()) PyErr_Clear();  // an error of a Python kernel under the dispatcher
  Py_RETURN_NONE;
}

bool nargs(const char* name, Py_ssize_t n, Py_ssize_t want) {
  if (n == want) return true;
  PyErr_Format(PyExc_TypeError, "_views.%s takes %zd arguments (%zd given)", name, want, n);
  return false;
}

// op(x, dims) for a plain x and a list of ints: reshape's shape (none of them 0, Paddle's "copy this dim", unless
// zero_ok) and transpose's perm
template <typename Op>
PyObject* with_int_list(const char* name, PyObject* const* args, Py_ssize_t n, bool zero_ok, Op op) {
  if (!nargs(name, n, 2)) return nullptr;
  PyObject* t = plain(args[0], true);
  int64_t dims[kMaxDims];
  Py_ssize_t nd = 0;
  if (t == nullptr || !int_list(args[1], dims, &nd)) Py_RETURN_NONE;
  if (!zero_ok)
    for (Py_ssize_t i = 0; i < nd; ++i)
      if (dims[i] == 0) Py_RETURN_NONE;
  try {
    return wrap(op(unpack(t), at::IntArrayRef(dims, nd)));
  } catch (...) {
    return declined();
  }
}

// reshape(x, shape)
PyObject* reshape(PyObject*, PyObject* const* args, Py_ssize_t n) {
  return with_int_list("reshape", args, n, false, [](const at::Tensor& x, at::IntArrayRef d) { return x.reshape(d); });
}

// transpose(x, perm)
PyObject* transpose(PyObject*, PyObject* const* args, Py_ssize_t n) {
  return with_int_list("transpose", args, n, true, [](const at::Tensor& x, at::IntArrayRef d) { return x.permute(d); });
}

// unsqueeze(x, axis): an int, or a non-empty list of ints inserted one after the other
PyObject* unsqueeze(PyObject*, PyObject* const* args, Py_ssize_t n) {
  if (!nargs("unsqueeze", n, 2)) return nullptr;
  PyObject* t = plain(args[0], true);
  if (t == nullptr) Py_RETURN_NONE;
  int64_t dims[kMaxDims];
  Py_ssize_t nd = 1;
  if (!as_int(args[1], &dims[0]) && (!int_list(args[1], dims, &nd) || nd == 0)) Py_RETURN_NONE;
  try {
    at::Tensor r = unpack(t).unsqueeze(dims[0]);
    for (Py_ssize_t i = 1; i < nd; ++i) r = r.unsqueeze(dims[i]);
    return wrap(r);
  } catch (...) {
    return declined();
  }
}

// slice(input, axes, starts, ends): one axis in [0, 8), bounds clamped as Python slicing (and the op body) do
PyObject* slice(PyObject*, PyObject* const* args, Py_ssize_t n) {
  if (!nargs("slice", n, 4)) return nullptr;
  PyObject* t = plain(args[0], true);
  int64_t a = 0, s = 0, e = 0;
  if (t == nullptr || !PyList_CheckExact(args[1]) || !PyList_CheckExact(args[2]) || !PyList_CheckExact(args[3]) ||
      PyList_GET_SIZE(args[1]) != 1 || PyList_GET_SIZE(args[2]) != 1 || PyList_GET_SIZE(args[3]) != 1 ||
      !as_int(PyList_GET_ITEM(args[1], 0), &a) || a < 0 || a >= 8 || !as_int(PyList_GET_ITEM(args[2], 0), &s) ||
      !as_int(PyList_GET_ITEM(args[3], 0), &e))
    Py_RETURN_NONE;
  try {
    const at::Tensor& x = unpack(t);
    if (a >= x.dim()) Py_RETURN_NONE;
    return wrap(x.slice(a, s, e, 1));
  } catch (...) {
    return declined();
  }
}

inline bool int_or_none(PyObject* v) { return v == Py_None || PyLong_CheckExact(v); }

// one index item of torch's basic indexing applied at `dim` of r: an int selects (the dim goes), a slice with a
// positive step slices, None inserts a dim; false (nothing applied) for anything else
inline bool apply_item(at::Tensor& r, PyObject* it, int64_t& dim) {
  if (PyLong_CheckExact(it)) {
    int64_t i;
    if (!as_int(it, &i)) return false;
    r = r.select(dim, i);  // bounds checked by ATen, as torch's x[i] does
    return true;
  }
  if (PySlice_Check(it)) {
    PySliceObject* sl = reinterpret_cast<PySliceObject*>(it);
    if (!int_or_none(sl->start) || !int_or_none(sl->stop) || !int_or_none(sl->step)) return false;
    Py_ssize_t start, stop, step;
    if (PySlice_Unpack(it, &start, &stop, &step) < 0) {
      PyErr_Clear();
      return false;
    }
    if (step <= 0 || dim >= r.dim()) return false;  // a negative step: Paddle's flip, on the Python path
    // torch clips a bound below this with a warning (python_variable_indexing.h): the Python path does that
    if (start < c10::SymInt::min_representable_int() || stop < c10::SymInt::min_representable_int()) return false;
    if (start != 0 || stop < r.size(dim) || step != 1)  // a whole dim stays as it is (torch skips it too)
      r = r.slice(dim, start, stop, step);  // clamps the bounds as Python slicing does
    ++dim;
    return true;
  }
  if (it == Py_None) {
    r = r.unsqueeze(dim);
    ++dim;
    return true;
  }
  return false;
}

// getitem(x, item): an int, a slice, or a tuple of ints / slices / None / one Ellipsis: torch's basic indexing
// (x._t[item]), done with select / slice / unsqueeze as torch's own applySlicing does
PyObject* getitem(PyObject*, PyObject* const* args, Py_ssize_t n) {
  if (!nargs("getitem", n, 2)) return nullptr;
  PyObject* t = plain(args[0], false);  // as the Python fast path: AMP leaves indexing alone
  PyObject* item = args[1];
  if (t == nullptr || zero_d == nullptr) Py_RETURN_NONE;
  const bool tuple = PyTuple_CheckExact(item);
  if (!tuple && !PyLong_CheckExact(item) && !PySlice_Check(item)) Py_RETURN_NONE;
  try {
    const at::Tensor& x = unpack(t);
    at::Tensor r = x;
    int64_t dim = 0;
    if (!tuple) {
      if (x.dim() == 0 || !apply_item(r, item, dim)) return declined();
    } else {
      Py_ssize_t k = PyTuple_GET_SIZE(item), specified = 0, ellipsis = 0;
      for (Py_ssize_t i = 0; i < k; ++i) {
        PyObject* it = PyTuple_GET_ITEM(item, i);
        if (it == Py_Ellipsis)
          ++ellipsis;
        else if (PyLong_CheckExact(it) || PySlice_Check(it))
          ++specified;
        else if (it != Py_None)
          Py_RETURN_NONE;
      }
      if (ellipsis > 1 || specified > x.dim()) return declined();  // torch's IndexError, from the Python path
      for (Py_ssize_t i = 0; i < k; ++i) {
        PyObject* it = PyTuple_GET_ITEM(item, i);
        if (it == Py_Ellipsis)
          dim += x.dim() - specified;
        else if (!apply_item(r, it, dim))
          return declined();
      }
    }
    if (r.is_same(x)) r = x.alias();  // x[:], x[...], x[()]: a new view, as torch gives
    if (r.dim() == 0) {  // Paddle's shape rule for a one-element result (API level dependent)
      PyObject* o = THPVariable_Wrap(r);
      if (o == nullptr) return declined();
      PyObject* s = PyObject_CallOneArg(zero_d, o);
      Py_DECREF(o);
      if (s == nullptr) return nullptr;
      if (!PyObject_TypeCheck(s, reinterpret_cast<PyTypeObject*>(THPVariableClass))) {
        Py_DECREF(s);
        PyErr_SetString(PyExc_TypeError, "_views.getitem: the 0-D shape rule must return a torch.Tensor");
        return nullptr;
      }
      return wrap_obj(s);
    }
    return wrap(r);
  } catch (...) {
    return declined();
  }
}

// the offset of `name`, an object slot (a member descriptor) of type `tp`
bool member_offset(PyObject* tp, const char* name, Py_ssize_t* off) {
  PyObject* d = PyObject_GetAttrString(tp, name);
  if (d == nullptr) return false;
  bool ok = Py_IS_TYPE(d, &PyMemberDescr_Type) &&
            reinterpret_cast<PyMemberDescrObject*>(d)->d_member->type == T_OBJECT_EX &&
            reinterpret_cast<PyMemberDescrObject*>(d)->d_common.d_type == reinterpret_cast<PyTypeObject*>(tp);
  if (ok) *off = reinterpret_cast<PyMemberDescrObject*>(d)->d_member->offset;
  Py_DECREF(d);
  if (!ok) PyErr_Format(PyExc_TypeError, "_views.configure: %R.%s is not an object slot of that type", tp, name);
  return ok;
}

void keep(PyObject** dst, PyObject* v) {
  Py_INCREF(v);
  Py_XSETREF(*dst, v);
}

// configure's optional argument v (nullptr: not given) kept in *dst when `ok` (its type check, false for a null v),
// else a TypeError
bool keep_checked(PyObject** dst, PyObject* v, bool ok, const char* what) {
  if (v == nullptr) return true;
  if (!ok) {
    PyErr_Format(PyExc_TypeError, "_views.configure: %s", what);
    return false;
  }
  keep(dst, v);
  return true;
}

PyObject* configure(PyObject*, PyObject* args, PyObject* kwargs) {
  static const char* kw[] = {"tensor_type", "mode", "amp_ops", "int_grad", "zero_d", "probe", nullptr};
  PyObject *tt = nullptr, *md = nullptr, *amp = nullptr, *ig = nullptr, *zd = nullptr, *probe = nullptr;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OOOOOO:configure", const_cast<char**>(kw), &tt, &md, &amp, &ig,
                                   &zd, &probe))
    return nullptr;
  if (probe != nullptr) {  // torch.empty(2, 3, 5): THPVariable's layout as declared above
    if (THPVariableClass == nullptr || Py_TYPE(probe) != reinterpret_cast<PyTypeObject*>(THPVariableClass)) {
      PyErr_SetString(PyExc_TypeError, "_views.configure: probe must be a torch.Tensor");
      return nullptr;
    }
    const at::Tensor& p = unpack(probe);
    if (!p.defined() || p.dim() != 3 || p.size(0) != 2 || p.size(1) != 3 || p.size(2) != 5) {
      PyErr_SetString(PyExc_RuntimeError, "_views.configure: the torch tensor layout does not match this build");
      return nullptr;
    }
    PyObject* back = THPVariable_Wrap(p);
    bool same = back == probe;
    Py_XDECREF(back);
    if (!same) {
      PyErr_SetString(PyExc_RuntimeError, "_views.configure: THPVariable_Wrap does not round-trip in this build");
      return nullptr;
    }
    layout_ok = true;
  }
  if (tt != nullptr) {
    if (!PyType_Check(tt)) {
      PyErr_SetString(PyExc_TypeError, "_views.configure: tensor_type must be a type");
      return nullptr;
    }
    Py_ssize_t a, b, c;
    if (!member_offset(tt, "_t", &a) || !member_offset(tt, "name", &b) || !member_offset(tt, "persistable", &c))
      return nullptr;
    off_t = a, off_name = b, off_persistable = c;
    keep(reinterpret_cast<PyObject**>(&tensor_type), tt);
  }
  if (md != nullptr) {
    Py_ssize_t a;
    if (!member_offset(reinterpret_cast<PyObject*>(Py_TYPE(md)), "static", &a)) return nullptr;
    off_static = a;
    keep(&mode, md);
  }
  if (!keep_checked(&amp_ops, amp, amp && PyDict_CheckExact(amp), "amp_ops must be a dict") ||
      !keep_checked(&int_grad, ig, ig && PyList_CheckExact(ig), "int_grad must be a list") ||
      !keep_checked(&zero_d, zd, zd && PyCallable_Check(zd), "zero_d must be callable"))
    return nullptr;
  Py_RETURN_NONE;
}

// --- Paddle's activation gradients in one pass --------------------------------------------------------------------

// Each element's value is computed on its own, so splitting the loop across threads gives the same bits as one pass.
// at::parallel_for is torch's own intra-op parallelism (its OpenMP pool where this file is compiled with -fopenmp,
// tools/build_native.py; serial otherwise), with torch's grain size: torch.set_num_threads(1) makes it serial.
// GCC: if-converted selects, and on x86-64 glibc an AVX2 clone picked at load time (an ifunc) beside the baseline
// one, as torch's own kernels have theirs: the same IEEE operations element by element (no FMA: -ffp-contract=off).
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__GLIBC__)
#define PADDLE_COMPAT_VECTORIZE __attribute__((optimize("O3", "no-trapping-math"), target_clones("avx2", "default")))
#elif defined(__GNUC__) && !defined(__clang__)
#define PADDLE_COMPAT_VECTORIZE __attribute__((optimize("O3", "no-trapping-math")))
#else
#define PADDLE_COMPAT_VECTORIZE
#endif

// Paddle's HardSwishGradFunctor (1.8.5 and 2.6.2): dout * slope, slope 0 where x + offset <= 0, 1 where
// x + offset >= threshold, else (2x + offset) / scale, each step rounded as there (engine/ops/common._HardSwish's
// Python form does the same operations in separate passes). Written so that the compiler vectorizes the loop.
template <typename T>
PADDLE_COMPAT_VECTORIZE void hard_swish_grad_loop(const T* g, const T* x, T* out, int64_t n, T thr, T scale, T off) {
  for (int64_t i = 0; i < n; ++i) {
    const T xi = x[i];
    const T a = xi + off;
    T slope = a >= thr ? T(1) : (xi * T(2) + off) / scale;
    slope = a <= T(0) ? T(0) : slope;
    out[i] = g[i] * slope;
  }
}

// Paddle's hard_sigmoid gradient as engine/ops/common._HardSigmoid's Python form computes it:
// (dout * float((0 < out) & (out < 1))) * slope, the mask a 0 or a 1 of the gradient's dtype (so dout * 0 keeps its
// sign, NaN and inf: -0, NaN), the slope rounded to that dtype as torch rounds a Python float
template <typename T>
PADDLE_COMPAT_VECTORIZE void hard_sigmoid_grad_loop(const T* g, const T* o, T* out, int64_t n, T slope) {
  for (int64_t i = 0; i < n; ++i) {
    const T oi = o[i];
    const T m = (oi > T(0)) & (oi < T(1)) ? T(1) : T(0);
    const T gm = g[i] * m;
    out[i] = gm * slope;
  }
}

// the (loop) over [0, n) in chunks of torch's intra-op threads
template <typename T, typename Loop>
void parallel_loop(const T* a, const T* b, T* out, int64_t n, Loop loop) {
  at::parallel_for(0, n, at::internal::GRAIN_SIZE,
                   [&](int64_t begin, int64_t end) { loop(a + begin, b + begin, out + begin, end - begin); });
}

// a new contiguous tensor shaped as x: kernel(g chunk, x chunk, out chunk, n) over torch's intra-op threads, in x's
// dtype (float32 or float64: elementwise_pair checked it); None on any ATen error (the Python form then runs)
template <typename Kernel>
PyObject* elementwise_result(const at::Tensor& g, const at::Tensor& x, Kernel kernel) {
  at::Tensor out;
  try {
    const at::Tensor gc = g.contiguous(), xc = x.contiguous();
    out = at::empty_like(xc, at::MemoryFormat::Contiguous);
    if (x.scalar_type() == at::kFloat)
      parallel_loop<float>(gc.const_data_ptr<float>(), xc.const_data_ptr<float>(), out.mutable_data_ptr<float>(),
                           xc.numel(), kernel);
    else
      parallel_loop<double>(gc.const_data_ptr<double>(), xc.const_data_ptr<double>(),
                            out.mutable_data_ptr<double>(), xc.numel(), kernel);
  } catch (const std::exception&) {
    Py_RETURN_NONE;
  }
  return THPVariable_Wrap(out);
}

// a Python float argument (an exact float: others go to the Python form, which rounds them its own way)
inline bool float_arg(PyObject* v, double* out) {
  if (!PyFloat_CheckExact(v)) return false;
  *out = PyFloat_AS_DOUBLE(v);
  return true;
}

inline bool plain_variable(PyObject* v) { return Py_TYPE(v) == reinterpret_cast<PyTypeObject*>(THPVariableClass); }

// where a native kernel may run at all: enabled, and no __torch_function__ / __torch_dispatch__ mode
// (FLAGS_check_nan_inf's check, tracing) that must see the operations
inline bool grad_kernels_ok() {
  return enabled && !at::impl::torch_function_mode_enabled() && !c10::impl::TorchDispatchModeTLS::any_modes_set();
}

// two plain dense CPU float32 / float64 tensors of one dtype and shape, with no gradient to record (double backward)
inline bool elementwise_pair(const at::Tensor& g, const at::Tensor& x) {
  const auto dt = x.scalar_type();
  return x.is_cpu() && g.is_cpu() && x.layout() == c10::kStrided && g.layout() == c10::kStrided &&
         g.scalar_type() == dt && (dt == at::kFloat || dt == at::kDouble) && x.sizes().equals(g.sizes()) &&
         !x.unsafeGetTensorImpl()->is_python_dispatch() && !g.unsafeGetTensorImpl()->is_python_dispatch() &&
         !(c10::GradMode::is_enabled() && (x.requires_grad() || g.requires_grad()));
}

// hard_swish_grad(g, x, threshold, scale, offset) -> torch.Tensor, or None where the Python form must run: not two
// plain dense CPU float32 / float64 tensors of one shape, a gradient to record (double backward), or a
// __torch_function__ / __torch_dispatch__ mode (FLAGS_check_nan_inf's check, tracing) that must see the operations
PyObject* hard_swish_grad(PyObject*, PyObject* const* args, Py_ssize_t n) {
  if (n != 5) {
    PyErr_SetString(PyExc_TypeError, "hard_swish_grad(g, x, threshold, scale, offset)");
    return nullptr;
  }
  if (!grad_kernels_ok() || !plain_variable(args[0]) || !plain_variable(args[1])) Py_RETURN_NONE;
  double attrs[3];
  for (int k = 0; k < 3; ++k) {
    attrs[k] = PyFloat_AsDouble(args[2 + k]);
    if (attrs[k] == -1.0 && PyErr_Occurred()) return nullptr;
  }
  const at::Tensor& g = unpack(args[0]);
  const at::Tensor& x = unpack(args[1]);
  if (!elementwise_pair(g, x)) Py_RETURN_NONE;
  return elementwise_result(g, x, [=](auto a, auto b, auto o, int64_t k) {
    using T = std::remove_const_t<std::remove_pointer_t<decltype(a)>>;
    hard_swish_grad_loop<T>(a, b, o, k, T(attrs[0]), T(attrs[1]), T(attrs[2]));
  });
}

// hard_sigmoid_grad(g, out, slope) -> torch.Tensor, or None where the Python form must run (as hard_swish_grad's
// declines, and a slope that is not a Python float)
PyObject* hard_sigmoid_grad(PyObject*, PyObject* const* args, Py_ssize_t n) {
  if (n != 3) {
    PyErr_SetString(PyExc_TypeError, "hard_sigmoid_grad(g, out, slope)");
    return nullptr;
  }
  double slope = 0;
  if (!grad_kernels_ok() || !plain_variable(args[0]) || !plain_variable(args[1]) || !float_arg(args[2], &slope))
    Py_RETURN_NONE;
  const at::Tensor& g = unpack(args[0]);
  const at::Tensor& y = unpack(args[1]);
  if (!elementwise_pair(g, y)) Py_RETURN_NONE;
  return elementwise_result(g, y, [=](auto a, auto b, auto o, int64_t k) {
    using T = std::remove_const_t<std::remove_pointer_t<decltype(a)>>;
    hard_sigmoid_grad_loop<T>(a, b, o, k, T(slope));
  });
}

// --- batch norm's running statistics --------------------------------------------------------------------------------

// engine/ops/nn_functional/norm.train_batch_norm's update, per channel c, in its order and precisions (S: the batch
// mean's and invstd's dtype, T: the running statistics'):
//   var = T(max(1 / (double(invstd) * double(invstd)) - eps, 0))     invstd.double().pow(-2).sub_(eps).clamp_(min=0)
//   running_mean = T(rm * T(m)) + T(T(mean) * T(1 - m))               running_mean.mul_(m).add_(mean.to(T) * (1 - m))
//   running_var  = T(rv * T(m)) + T(var * T(1 - m))                   running_var.mul_(m).add_(var * (1 - m))
// (torch's pow(-2) is 1 / (x * x); its clamp keeps a NaN; `1 - m` is a Python float, rounded to T as torch does)
template <typename S, typename T>
void bn_stats_loop(T* rm, T* rv, const S* mean, const S* invstd, int64_t n, double m, double eps) {
  const T tm = static_cast<T>(m), t1m = static_cast<T>(1.0 - m);
  for (int64_t c = 0; c < n; ++c) {
    const double d = static_cast<double>(invstd[c]);
    const double sq = d * d;
    const double p = 1.0 / sq;
    const double v = p - eps;
    const T var = static_cast<T>(std::max(v, 0.0));  // (v < 0 ? 0 : v): a NaN stays
    const T a = rm[c] * tm;
    const T b = static_cast<T>(mean[c]) * t1m;
    rm[c] = a + b;
    const T e = rv[c] * tm;
    const T f = var * t1m;
    rv[c] = e + f;
  }
}

inline bool float_dtype(const at::Tensor& t) { return t.scalar_type() == at::kFloat || t.scalar_type() == at::kDouble; }

// batch_norm_stats_update(running_mean, running_var, mean, invstd, momentum, epsilon) -> True when done in place,
// None where the Python form must run: not four plain contiguous 1-D CPU float32 / float64 tensors of one length
// (the running statistics of one dtype, the batch's of one), overlapping ones, a non-float momentum or epsilon, a
// __torch_function__ / __torch_dispatch__ mode, an inference tensor (torch's in-place error comes from the Python
// form). The running statistics' version counters move as the Python form's two in-place ops move them.
PyObject* batch_norm_stats_update(PyObject*, PyObject* const* args, Py_ssize_t n) {
  if (n != 6) {
    PyErr_SetString(PyExc_TypeError,
                    "batch_norm_stats_update(running_mean, running_var, mean, invstd, momentum, epsilon)");
    return nullptr;
  }
  double m = 0, eps = 0;
  if (!grad_kernels_ok() || !float_arg(args[4], &m) || !float_arg(args[5], &eps)) Py_RETURN_NONE;
  for (int k = 0; k < 4; ++k)
    if (!plain_variable(args[k])) Py_RETURN_NONE;
  const at::Tensor& rm = unpack(args[0]);
  const at::Tensor& rv = unpack(args[1]);
  const at::Tensor& mean = unpack(args[2]);
  const at::Tensor& invstd = unpack(args[3]);
  const at::Tensor* all[4] = {&rm, &rv, &mean, &invstd};
  const int64_t c = rm.numel();
  for (const at::Tensor* t : all)
    if (!t->defined() || !t->is_cpu() || t->layout() != c10::kStrided || t->dim() != 1 || t->numel() != c ||
        !t->is_contiguous() || !float_dtype(*t) || t->unsafeGetTensorImpl()->is_python_dispatch() ||
        t->is_inference() || t->is_neg() || t->is_conj())
      Py_RETURN_NONE;
  if (rv.scalar_type() != rm.scalar_type() || invstd.scalar_type() != mean.scalar_type()) Py_RETURN_NONE;
  try {
    for (int i = 0; i < 4; ++i)
      for (int j = i + 1; j < 4; ++j)
        if (!all[i]->has_storage() || all[i]->storage().is_alias_of(all[j]->storage())) Py_RETURN_NONE;
    for (int k = 0; k < 2; ++k) {  // mul_, then add_
      rm.unsafeGetTensorImpl()->bump_version();
      rv.unsafeGetTensorImpl()->bump_version();
    }
    const bool s32 = mean.scalar_type() == at::kFloat, t32 = rm.scalar_type() == at::kFloat;
    if (s32 && t32)
      bn_stats_loop<float, float>(rm.mutable_data_ptr<float>(), rv.mutable_data_ptr<float>(),
                                  mean.const_data_ptr<float>(), invstd.const_data_ptr<float>(), c, m, eps);
    else if (s32)
      bn_stats_loop<float, double>(rm.mutable_data_ptr<double>(), rv.mutable_data_ptr<double>(),
                                   mean.const_data_ptr<float>(), invstd.const_data_ptr<float>(), c, m, eps);
    else if (t32)
      bn_stats_loop<double, float>(rm.mutable_data_ptr<float>(), rv.mutable_data_ptr<float>(),
                                   mean.const_data_ptr<double>(), invstd.const_data_ptr<double>(), c, m, eps);
    else
      bn_stats_loop<double, double>(rm.mutable_data_ptr<double>(), rv.mutable_data_ptr<double>(),
                                    mean.const_data_ptr<double>(), invstd.const_data_ptr<double>(), c, m, eps);
  } catch (const std::exception&) {
    Py_RETURN_NONE;
  }
  Py_RETURN_TRUE;
}

// --- max pooling with indices ------------------------------------------------------------------------------------

// torch's CPU max_pool2d_with_indices (NCHW, dilation 1, floor mode), element for element: each output scans its
// window clipped to the input, rows then columns, from maxval -inf and the window's first real cell, and takes a
// value v when v > maxval or v is NaN (so the first of equal maxima, the last NaN; an all -inf window keeps its first
// cell). Torch's loop runs one output at a time; here one pass per window cell runs along an output row, which the
// compiler vectorizes (a branch per element is most of torch's time on a 2x2 pool); every output still sees its
// cells in torch's order, so values and indices are the same bits. SW: the column stride when 1 or 2 (known to the
// compiler: contiguous or pairwise loads), 0 for any other (the runtime `sw`).
// one step of that scan: cell value v at flat index `at` against the running maximum c at index i
template <typename T>
__attribute__((always_inline)) inline void max_pool_take(T v, int64_t at, T& c, int64_t& i) {
  const bool take = (v > c) | (v != v);
  c = take ? v : c;
  i = take ? at : i;
}

template <typename T, int SW>
PADDLE_COMPAT_VECTORIZE void max_pool_cell_pass(const T* __restrict__ row, T* __restrict__ m,
                                                int64_t* __restrict__ id, int64_t n, int64_t sw, int64_t base) {
  const int64_t step = SW ? SW : sw;
  for (int64_t o = 0; o < n; ++o) {
    T c = m[o];
    int64_t i = id[o];
    max_pool_take(row[o * step], base + o * step, c, i);
    m[o] = c;
    id[o] = i;
  }
}

// the 2x2 window at stride 2 without padding (LeNet's, VGG's): the four cells of each output in one pass, in the
// same order as the general form (a window's first cell is never below -inf, so it starts the scan)
template <typename T>
PADDLE_COMPAT_VECTORIZE void max_pool_2x2_row(const T* __restrict__ r0, const T* __restrict__ r1, T* __restrict__ m,
                                              int64_t* __restrict__ id, int64_t n, int64_t base, int64_t W) {
  for (int64_t o = 0; o < n; ++o) {
    T c = r0[2 * o];
    int64_t i = base + 2 * o;
    max_pool_take(r0[2 * o + 1], base + 2 * o + 1, c, i);
    max_pool_take(r1[2 * o], base + W + 2 * o, c, i);
    max_pool_take(r1[2 * o + 1], base + W + 2 * o + 1, c, i);
    m[o] = c;
    id[o] = i;
  }
}

template <typename T>
void max_pool_plane_rows(const T* src, T* dst, int64_t* di, int64_t H, int64_t W, int64_t OH, int64_t OW, int64_t kh,
                         int64_t kw, int64_t sh, int64_t sw, int64_t ph, int64_t pw, int64_t lo, int64_t hi) {
  if (kh == 2 && kw == 2 && sh == 2 && sw == 2 && ph == 0 && pw == 0) {
    for (int64_t oh = 0; oh < OH; ++oh)
      max_pool_2x2_row<T>(src + 2 * oh * W, src + (2 * oh + 1) * W, dst + oh * OW, di + oh * OW, OW, 2 * oh * W, W);
    return;
  }
  auto pass = sw == 1 ? max_pool_cell_pass<T, 1> : sw == 2 ? max_pool_cell_pass<T, 2> : max_pool_cell_pass<T, 0>;
  for (int64_t oh = 0; oh < OH; ++oh) {
    const int64_t h_start = oh * sh - ph, h1 = std::min(h_start + kh, H), h0 = std::max<int64_t>(h_start, 0);
    T* m = dst + oh * OW;
    int64_t* id = di + oh * OW;
    for (int64_t ow = 0; ow < OW; ++ow) {
      m[ow] = -std::numeric_limits<T>::infinity();
      id[ow] = h0 * W + std::max<int64_t>(ow * sw - pw, 0);
    }
    for (int64_t h = h0; h < h1; ++h) {
      const T* row = src + h * W;
      for (int64_t ow = 0; ow < OW; ++ow) {  // the clipped windows at either edge, one cell at a time
        if (ow == lo) ow = std::max(hi, lo);
        if (ow >= OW) break;
        const int64_t w_start = ow * sw - pw, w1 = std::min(w_start + kw, W);
        for (int64_t w = std::max<int64_t>(w_start, 0); w < w1; ++w) max_pool_take(row[w], h * W + w, m[ow], id[ow]);
      }
      for (int64_t j = 0; j < kw && lo < hi; ++j) {  // the whole windows, one window column at a time
        const int64_t first = lo * sw - pw + j;
        pass(row + first, m + lo, id + lo, hi - lo, sw, h * W + first);
      }
    }
  }
}

// max_pool2d(x, kh, kw, sh, sw, ph, pw) -> (out, indices) as torch.ops.aten.max_pool2d_with_indices(x, [kh, kw],
// [sh, sw], [ph, pw]) gives them (indices int64, flat in each input plane), or None where that op must run: not a
// plain contiguous 4-D CPU float32 / float64 tensor with elements, a gradient to record, a __torch_function__ /
// __torch_dispatch__ mode (tracing, FLAGS_check_nan_inf), or a window torch would refuse (its error then comes from
// torch: padding over half the window, an empty output).
PyObject* max_pool2d(PyObject*, PyObject* const* args, Py_ssize_t n) {
  if (n != 7) {
    PyErr_SetString(PyExc_TypeError, "max_pool2d(x, kh, kw, sh, sw, ph, pw)");
    return nullptr;
  }
  if (!grad_kernels_ok() || !plain_variable(args[0])) Py_RETURN_NONE;
  int64_t a[6];
  for (int k = 0; k < 6; ++k) {
    if (!PyLong_CheckExact(args[1 + k])) Py_RETURN_NONE;
    a[k] = PyLong_AsLongLong(args[1 + k]);
    if (a[k] == -1 && PyErr_Occurred()) return nullptr;
  }
  const int64_t kh = a[0], kw = a[1], sh = a[2], sw = a[3], ph = a[4], pw = a[5];
  const at::Tensor& x = unpack(args[0]);
  if (!x.is_cpu() || x.layout() != c10::kStrided || x.dim() != 4 || !float_dtype(x) || !x.is_contiguous() ||
      x.numel() == 0 || x.unsafeGetTensorImpl()->is_python_dispatch() || x.is_neg() ||
      (c10::GradMode::is_enabled() && x.requires_grad()))
    Py_RETURN_NONE;
  if (kh < 1 || kw < 1 || sh < 1 || sw < 1 || ph < 0 || pw < 0 || 2 * ph > kh || 2 * pw > kw) Py_RETURN_NONE;
  const int64_t N = x.size(0), C = x.size(1), H = x.size(2), W = x.size(3);
  const int64_t OH = (H + 2 * ph - kh) / sh + 1, OW = (W + 2 * pw - kw) / sw + 1;
  if (H + 2 * ph < kh || W + 2 * pw < kw || OH < 1 || OW < 1) Py_RETURN_NONE;
  int64_t lo = 0, hi = OW;  // the output columns whose windows lie wholly inside the input: [lo, hi)
  while (lo < OW && lo * sw - pw < 0) ++lo;
  while (hi > lo && (hi - 1) * sw - pw + kw > W) --hi;
  at::Tensor out, ind;
  try {
    out = at::empty({N, C, OH, OW}, x.options());
    ind = at::empty({N, C, OH, OW}, x.options().dtype(at::kLong));
    int64_t* di = ind.mutable_data_ptr<int64_t>();
    const int64_t plane = H * W, oplane = OH * OW;
    auto run = [&](auto* src, auto* dst) {
      using T = std::remove_const_t<std::remove_pointer_t<decltype(dst)>>;
      const int64_t grain = std::max<int64_t>(1, at::internal::GRAIN_SIZE / std::max<int64_t>(1, plane));
      at::parallel_for(0, N * C, grain, [&](int64_t b, int64_t e) {
        for (int64_t p = b; p < e; ++p)
          max_pool_plane_rows<T>(src + p * plane, dst + p * oplane, di + p * oplane, H, W, OH, OW, kh, kw, sh, sw,
                                 ph, pw, lo, hi);
      });
    };
    if (x.scalar_type() == at::kFloat)
      run(x.const_data_ptr<float>(), out.mutable_data_ptr<float>());
    else
      run(x.const_data_ptr<double>(), out.mutable_data_ptr<double>());
  } catch (const std::exception&) {
    Py_RETURN_NONE;
  }
  PyObject* o = THPVariable_Wrap(out);
  if (o == nullptr) return nullptr;
  PyObject* i = THPVariable_Wrap(ind);
  if (i == nullptr) {
    Py_DECREF(o);
    return nullptr;
  }
  PyObject* r = PyTuple_Pack(2, o, i);
  Py_DECREF(o);
  Py_DECREF(i);
  return r;
}

// --- the momentum optimizer's update in one pass ------------------------------------------------------------------

// engine/ops/update_ops.momentum_steps' torch path, per element, T the tensors' dtype (float32 or float64), each
// product and each sum rounded to T on its own (the torch kernels named; none of them rounds twice or fuses):
//   with L2 (l2_coeff != 0, a NaN included, as Python's truth value):
//     d   = T(p * c)        torch._foreach_mul(params, c_T)       c_T = T(l2_coeff), scalar_operand's 0-d tensor
//     gg  = T(d + g)        torch._foreach_add_(decayed, grads)   ufunc add: fmadd(g, 1, d), exact for alpha 1
//   else gg = g
//   vm  = T(v * m)          torch._foreach_mul_(velocities, m_T)  m_T = T(mu), scalar_operand's 0-d tensor
//   v'  = T(vm + gg)        torch._foreach_add_(velocities, gg)
//   s   = T(a * v')         sub_scaled_all_: torch._foreach_addcmul_(params, velocities, [one], value=-lr),
//   p'  = T(p + s)          addcmul's self + value * t1 * t2 with a = Scalar(-lr).to<T>() and t2 = 1: s * 1 = s
//                           exactly, so T(p + T(s * 1)) even where torch's kernel fuses its last multiply-add
// d reads p before p' is written; a tensor's element depends on its own elements only, so a loop over elements in
// any split across threads, one tensor after another, gives the torch path's bits (tensors that do not overlap).
// T(x) of a double is the round-to-nearest conversion, as torch.tensor(x, dtype=T) and Scalar::to<T> do;
// Scalar::to<float> raises for a finite -lr beyond float's range (checked_convert): declined, torch raises it.
// x + y where a NaN y gives y's NaN (quieted), whatever x: torch's CPU add_ (fmadd(other, alpha, self)) and
// addcmul_ (self + product) give `other`'s / the product's NaN where both are NaN (their vectorized body and scalar
// tail alike; seen with torch 2.13's AVX512, AVX2 and default kernels, tests/test_native_kernels.py checks the ones
// running). IEEE 754 leaves that choice open, x86 takes its first operand's, and a compiler may swap the operands
// of a sum: the select fixes it. A macro, not a function: GCC inlines nothing across optimize / target attributes.
#define PADDLE_COMPAT_ADD_KEEP_NAN(x, y) (((y) != (y) ? (y) : (x)) + (y))

template <typename T>
PADDLE_COMPAT_VECTORIZE void momentum_loop(T* __restrict__ p, const T* __restrict__ g, T* __restrict__ v, int64_t n,
                                           T m, T a) {
  for (int64_t i = 0; i < n; ++i) {
    const T vm = v[i] * m;
    const T vn = PADDLE_COMPAT_ADD_KEEP_NAN(vm, g[i]);
    v[i] = vn;
    const T s = a * vn;
    p[i] = PADDLE_COMPAT_ADD_KEEP_NAN(p[i], s);
  }
}

template <typename T>
PADDLE_COMPAT_VECTORIZE void momentum_l2_loop(T* __restrict__ p, const T* __restrict__ g, T* __restrict__ v,
                                              int64_t n, T m, T a, T c) {
  for (int64_t i = 0; i < n; ++i) {
    const T pi = p[i];
    const T d = pi * c;
    const T gg = PADDLE_COMPAT_ADD_KEEP_NAN(d, g[i]);
    const T vm = v[i] * m;
    const T vn = PADDLE_COMPAT_ADD_KEEP_NAN(vm, gg);
    v[i] = vn;
    const T s = a * vn;
    p[i] = PADDLE_COMPAT_ADD_KEEP_NAN(pi, s);
  }
}

// the same element by element at any strides (a row of a TensorIterator over non-contiguous tensors)
template <typename T>
void momentum_strided(char* p, int64_t sp, const char* g, int64_t sg, char* v, int64_t sv, int64_t n, T m, T a, T c,
                      bool l2) {
  for (int64_t i = 0; i < n; ++i) {
    T& pr = *reinterpret_cast<T*>(p + i * sp);
    T& vr = *reinterpret_cast<T*>(v + i * sv);
    const T gi = *reinterpret_cast<const T*>(g + i * sg);
    const T pi = pr;
    T gg = gi;
    if (l2) {
      const T d = pi * c;
      gg = PADDLE_COMPAT_ADD_KEEP_NAN(d, gi);
    }
    const T vm = vr * m;
    const T vn = PADDLE_COMPAT_ADD_KEEP_NAN(vm, gg);
    vr = vn;
    const T s = a * vn;
    pr = PADDLE_COMPAT_ADD_KEEP_NAN(pi, s);
  }
}

// one parameter's update: its data when its three tensors are contiguous, else a TensorIterator over them
struct MomentumTriple {
  void* p;
  const void* g;
  void* v;
  int64_t n;
  std::unique_ptr<at::TensorIterator> iter;
};

template <typename T>
void momentum_run(const std::vector<MomentumTriple>& work, double mu, double neg_lr, double coeff) {
  const T m = static_cast<T>(mu), a = static_cast<T>(neg_lr), c = static_cast<T>(coeff);
  const bool l2 = coeff != 0.0;
  auto contiguous = [=](T* p, const T* g, T* v, int64_t k) {
    if (l2)
      momentum_l2_loop<T>(p, g, v, k, m, a, c);
    else
      momentum_loop<T>(p, g, v, k, m, a);
  };
  for (const MomentumTriple& w : work) {
    if (w.iter) {  // operands: p and v (its outputs), then g
      w.iter->for_each([&](char** data, const int64_t* strides, int64_t n0, int64_t n1) {
        for (int64_t j = 0; j < n1; ++j) {
          char* p = data[0] + j * strides[3];
          char* v = data[1] + j * strides[4];
          const char* g = data[2] + j * strides[5];
          if (strides[0] == sizeof(T) && strides[1] == sizeof(T) && strides[2] == sizeof(T))
            contiguous(reinterpret_cast<T*>(p), reinterpret_cast<const T*>(g), reinterpret_cast<T*>(v), n0);
          else
            momentum_strided<T>(p, strides[0], g, strides[2], v, strides[1], n0, m, a, c, l2);
        }
      });
      continue;
    }
    T* p = static_cast<T*>(w.p);
    const T* g = static_cast<const T*>(w.g);
    T* v = static_cast<T*>(w.v);
    at::parallel_for(0, w.n, at::internal::GRAIN_SIZE,
                     [&](int64_t begin, int64_t end) { contiguous(p + begin, g + begin, v + begin, end - begin); });
  }
}

inline bool plain_or_parameter(PyObject* v) {
  return plain_variable(v) || Py_TYPE(v) == reinterpret_cast<PyTypeObject*>(ParameterClass);
}

// the bytes a tensor's elements lie in, and whether the update writes them
struct Span {
  uintptr_t lo, hi;
  bool written;
};

Span span_of(const void* data, const at::Tensor& t, size_t item, bool written) {
  int64_t lo = 0, hi = 0;  // the lowest and highest element offsets
  for (int64_t d = 0; d < t.dim(); ++d) {
    const int64_t reach = (t.size(d) - 1) * t.stride(d);
    (reach < 0 ? lo : hi) += reach;
  }
  const uintptr_t base = reinterpret_cast<uintptr_t>(data);
  return {base + lo * static_cast<intptr_t>(item), base + (hi + 1) * static_cast<intptr_t>(item), written};
}

// whether no written span overlaps another span (read-only ones, gradients, may overlap each other)
bool disjoint_writes(std::vector<Span>& spans) {
  std::sort(spans.begin(), spans.end(), [](const Span& x, const Span& y) { return x.lo < y.lo; });
  uintptr_t reach = 0, reach_written = 0;  // the furthest end of the spans before, of the written ones before
  for (const Span& s : spans) {
    if (s.lo < reach_written || (s.written && s.lo < reach)) return false;
    reach = std::max(reach, s.hi);
    if (s.written) reach_written = std::max(reach_written, s.hi);
  }
  return true;
}

// the GIL released for the loops, as torch's own bindings release it (other Python threads run meanwhile)
struct ReleaseGil {
  PyThreadState* state = PyEval_SaveThread();
  ~ReleaseGil() { PyEval_RestoreThread(state); }
};

// momentum_update(params, grads, velocities, lr, mu, l2_coeff) -> True when done in place, None where the torch path
// must run, having written nothing: not three lists (or tuples) of one length of plain strided CPU float32 / float64
// tensors of one dtype, each triple of one shape; a parameter or velocity whose elements overlap each other (an
// expanded one) or may (a step-sliced one); tensors that may overlap a written one (a parameter or a velocity);
// lr, mu or l2_coeff not a Python float, or a finite lr that float32 cannot hold (torch raises); a gradient to
// record (requires_grad with grad mode on); an inference tensor (torch's in-place error); a __torch_function__ /
// __torch_dispatch__ mode. A triple whose three tensors are contiguous goes through their data in one loop split
// across torch's threads, any other through a TensorIterator (torch's own strided elementwise loop, split alike).
// Each velocity's version counter moves twice (mul_, add_), each parameter's once (addcmul_), as on the torch path.
PyObject* momentum_update(PyObject*, PyObject* const* args, Py_ssize_t n) {
  if (n != 6) {
    PyErr_SetString(PyExc_TypeError, "momentum_update(params, grads, velocities, lr, mu, l2_coeff)");
    return nullptr;
  }
  double lr = 0, mu = 0, coeff = 0;
  if (!grad_kernels_ok() || !float_arg(args[3], &lr) || !float_arg(args[4], &mu) || !float_arg(args[5], &coeff))
    Py_RETURN_NONE;
  for (int k = 0; k < 3; ++k)
    if (!PyList_CheckExact(args[k]) && !PyTuple_CheckExact(args[k])) Py_RETURN_NONE;
  const Py_ssize_t count = PySequence_Fast_GET_SIZE(args[0]);
  if (PySequence_Fast_GET_SIZE(args[1]) != count || PySequence_Fast_GET_SIZE(args[2]) != count) Py_RETURN_NONE;
  const double neg_lr = -lr;
  std::vector<at::Tensor> held;  // references to every tensor while the GIL is released
  std::vector<MomentumTriple> work;
  std::vector<Span> spans;
  at::ScalarType dtype = at::kFloat;
  try {
    held.reserve(3 * count);
    for (Py_ssize_t i = 0; i < count; ++i) {
      const at::Tensor* t[3];
      for (int k = 0; k < 3; ++k) {
        PyObject* o = PySequence_Fast_GET_ITEM(args[k], i);
        if (!plain_or_parameter(o)) Py_RETURN_NONE;
        t[k] = &unpack(o);
      }
      if (i == 0) dtype = t[0]->scalar_type();
      for (const at::Tensor* x : t)
        if (!x->defined() || !x->is_cpu() || x->layout() != c10::kStrided || x->scalar_type() != dtype ||
            !float_dtype(*x) || !x->sizes().equals(t[0]->sizes()) || !x->has_storage() ||
            x->unsafeGetTensorImpl()->is_python_dispatch() || x->is_inference() || x->is_neg() || x->is_conj() ||
            x->_is_zerotensor() || (c10::GradMode::is_enabled() && x->requires_grad()))
          Py_RETURN_NONE;
      for (const at::Tensor* x : {t[0], t[2]})  // written: no element twice
        if (!x->is_contiguous() && at::has_internal_overlap(*x) != at::MemOverlap::No) Py_RETURN_NONE;
      for (const at::Tensor* x : t) held.push_back(*x);
    }
    if (dtype == at::kFloat && std::isfinite(neg_lr) && std::fabs(neg_lr) > std::numeric_limits<float>::max())
      Py_RETURN_NONE;
    work.reserve(count);
    spans.reserve(3 * count);
    const size_t item = dtype == at::kFloat ? sizeof(float) : sizeof(double);
    for (Py_ssize_t i = 0; i < count; ++i) {
      const at::Tensor &p = held[3 * i], &g = held[3 * i + 1], &v = held[3 * i + 2];
      const int64_t k = p.numel();
      if (k == 0) continue;
      MomentumTriple w{p.mutable_data_ptr(), g.const_data_ptr(), v.mutable_data_ptr(), k, nullptr};
      spans.push_back(span_of(w.p, p, item, true));
      spans.push_back(span_of(w.g, g, item, false));
      spans.push_back(span_of(w.v, v, item, true));
      if (!p.is_contiguous() || !g.is_contiguous() || !v.is_contiguous())
        w.iter = std::make_unique<at::TensorIterator>(at::TensorIteratorConfig()
                                                          .set_check_mem_overlap(false)  // checked above
                                                          .resize_outputs(false)
                                                          .add_output(p)
                                                          .add_output(v)
                                                          .add_const_input(g)
                                                          .build());
      work.push_back(std::move(w));
    }
    if (!disjoint_writes(spans)) Py_RETURN_NONE;
  } catch (const std::exception&) {
    return declined();
  }
  for (Py_ssize_t i = 0; i < count; ++i) {
    held[3 * i].unsafeGetTensorImpl()->bump_version();  // addcmul_
    for (int k = 0; k < 2; ++k) held[3 * i + 2].unsafeGetTensorImpl()->bump_version();  // mul_, add_
  }
  std::string error;  // none expected past the checks; if any, raised (some elements may have been written)
  {
    ReleaseGil nogil;
    try {
      if (dtype == at::kFloat)
        momentum_run<float>(work, mu, neg_lr, coeff);
      else
        momentum_run<double>(work, mu, neg_lr, coeff);
    } catch (const std::exception& e) {
      error = e.what();
      if (error.empty()) error = "unknown error";
    }
  }
  if (!error.empty()) {
    PyErr_Format(PyExc_RuntimeError, "momentum_update: %s", error.c_str());
    return nullptr;
  }
  Py_RETURN_TRUE;
}

// set_enabled(flag) -> the previous flag: off, every function declines (the tests run the Python path this way)
PyObject* set_enabled(PyObject*, PyObject* flag) {
  int on = PyObject_IsTrue(flag);
  if (on < 0) return nullptr;
  PyObject* prev = enabled ? Py_True : Py_False;
  enabled = on != 0;
  Py_INCREF(prev);
  return prev;
}

PyObject* is_ready(PyObject*, PyObject*) { return PyBool_FromLong(ready()); }

PyMethodDef methods[] = {
    {"reshape", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(reshape)), METH_FASTCALL,
     "reshape(x, shape) -> Tensor or None"},
    {"transpose", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(transpose)), METH_FASTCALL,
     "transpose(x, perm) -> Tensor or None"},
    {"unsqueeze", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(unsqueeze)), METH_FASTCALL,
     "unsqueeze(x, axis) -> Tensor or None"},
    {"slice", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(slice)), METH_FASTCALL,
     "slice(input, axes, starts, ends) -> Tensor or None"},
    {"getitem", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(getitem)), METH_FASTCALL,
     "getitem(x, item) -> Tensor or None"},
    {"hard_swish_grad", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(hard_swish_grad)), METH_FASTCALL,
     "hard_swish_grad(g, x, threshold, scale, offset) -> torch.Tensor or None"},
    {"hard_sigmoid_grad", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(hard_sigmoid_grad)),
     METH_FASTCALL, "hard_sigmoid_grad(g, out, slope) -> torch.Tensor or None"},
    {"batch_norm_stats_update", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(batch_norm_stats_update)),
     METH_FASTCALL,
     "batch_norm_stats_update(running_mean, running_var, mean, invstd, momentum, epsilon) -> True or None"},
    {"max_pool2d", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(max_pool2d)), METH_FASTCALL,
     "max_pool2d(x, kh, kw, sh, sw, ph, pw) -> (out, indices) or None"},
    {"momentum_update", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(momentum_update)), METH_FASTCALL,
     "momentum_update(params, grads, velocities, lr, mu, l2_coeff) -> True or None"},
    {"configure", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(configure)),
     METH_VARARGS | METH_KEYWORDS,
     "configure(tensor_type=, mode=, amp_ops=, int_grad=, zero_d=, probe=): the objects the checks read"},
    {"set_enabled", set_enabled, METH_O, "set_enabled(flag) -> previous flag"},
    {"ready", is_ready, METH_NOARGS, "ready() -> whether the functions may run (configured and enabled)"},
    {nullptr, nullptr, 0, nullptr}};

PyModuleDef module = {PyModuleDef_HEAD_INIT, "_views", "paddle_compat's native view ops (optional)", -1, methods};

}  // namespace

PyMODINIT_FUNC PyInit__views() {
  PyObject* m = PyModule_Create(&module);
  if (m != nullptr && PyModule_AddStringConstant(m, "TORCH_VERSION", PADDLE_COMPAT_TORCH_VERSION) < 0) {
    Py_DECREF(m);
    return nullptr;
  }
  return m;
}
