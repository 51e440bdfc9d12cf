// Part of koma.js itself (linked with --post-js, bindings/js/CMakeLists.txt):
// where koma_js.cpp's refusals become the JavaScript Errors callers see.
//
// No JavaScript exception may unwind through WebAssembly frames: it would
// leave the stack pointer where the frames had moved it (16 bytes a refused
// call, until every call failed with "memory access out of bounds"; issue
// 40). So koma_js.cpp never throws into JavaScript: a refused call records
// the refusal in komaRefusal (report_refusal, or one of its js_* helpers when
// the caller's own code threw, a getter or a Proxy's trap) and returns a
// neutral value; the wrapper below, once the call into WebAssembly has
// returned, throws the Error (name and message as koma gave them) or the
// caller's own exception as it was thrown.
//
// Every function, method and constructor embind binds gets its invoker from
// craftInvokerFunction, so wrapping that covers them all. The bindings
// register when the WebAssembly instance is ready, which is after this code
// ran (this file comes last in the module's factory, and instantiation is
// asynchronous); the check below makes that certain.
var komaRefusal = null;

(function () {
  if (runtimeInitialized) throw new Error("koma.js: the bindings registered before post.js wrapped them");
  var craft = craftInvokerFunction;
  craftInvokerFunction = function (humanName, argTypes, classType, cppInvokerFunc, cppTargetFunc) {
    var invoker = craft(humanName, argTypes, classType, cppInvokerFunc, cppTargetFunc);
    return function () {
      komaRefusal = null;
      var result = invoker.apply(this, arguments);
      if (komaRefusal === null) return result;
      var refusal = komaRefusal;
      komaRefusal = null;
      if ("thrown" in refusal) throw refusal.thrown;
      var error = new Error(refusal.message);
      error.name = refusal.name;
      throw error;
    };
  };
})();
