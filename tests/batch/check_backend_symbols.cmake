# SPDX-License-Identifier: MIT OR Apache-2.0
# Fails when a backend object file defines an external symbol outside its own namespace
# lwc::simd::<backend>. Such a symbol (an inline function or template instantiated there) is
# compiled with that backend's instruction set; if another unit defines the same symbol, the
# linker may keep either copy, and a CPU without that instruction set would fault in code
# that never chose the backend.
#
# It also fails when a backend has a static initializer: that code would run at program start
# on every CPU, before any CPUID check.
#
# cmake -DNM=<nm> -DOBJDUMP=<objdump> -DSANITIZED=OFF -DBACKENDS="portable;avx2"
#       -DOBJECTS="a.o,b.o" -P check_backend_symbols.cmake
string(REPLACE "," ";" objects "${OBJECTS}")
set(failed FALSE)
foreach(obj ${objects})
  set(backend "")
  foreach(b ${BACKENDS})
    if(obj MATCHES "backend_${b}\\.cpp\\.o$")
      set(backend ${b})
    endif()
  endforeach()
  if(backend STREQUAL "")
    message(FATAL_ERROR "cannot tell the backend of ${obj}")
  endif()
  execute_process(COMMAND ${NM} --defined-only --extern-only ${obj}
    OUTPUT_VARIABLE out RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${NM} failed on ${obj}")
  endif()
  execute_process(COMMAND ${OBJDUMP} -h ${obj} OUTPUT_VARIABLE sections RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${OBJDUMP} failed on ${obj}")
  endif()
  # (Sanitizer builds add their own module constructor, so the check is skipped there.)
  if(NOT SANITIZED AND sections MATCHES "\\.(init_array|ctors)")
    message(SEND_ERROR "${obj}: has a static initializer")
    set(failed TRUE)
  endif()
  string(LENGTH "${backend}" len)
  # Itanium mangling of the namespace prefix, with the special-name prefixes of guard
  # variables, vtables and typeinfo.
  set(prefix "^_Z(GV|TV|TI|TS|TH|TW)?N3lwc4simd${len}${backend}")
  string(REPLACE "\n" ";" lines "${out}")
  set(count 0)
  foreach(line ${lines})
    if(NOT line MATCHES "^[0-9a-fA-F]* +[A-Za-z] +(.+)$")
      continue()
    endif()
    set(sym "${CMAKE_MATCH_1}")
    # AddressSanitizer's one-definition-rule markers name the global they guard.
    string(REGEX REPLACE "^__odr_asan\\." "" sym "${sym}")
    math(EXPR count "${count} + 1")
    if(sym MATCHES "${prefix}" OR sym STREQUAL "DW.ref.__gxx_personality_v0")
      continue()
    endif()
    message(SEND_ERROR "${obj}: symbol outside lwc::simd::${backend}: ${sym}")
    set(failed TRUE)
  endforeach()
  if(count EQUAL 0)
    message(SEND_ERROR "${obj}: no external symbols found; is this the right file?")
    set(failed TRUE)
  endif()
  message(STATUS "${backend}: ${count} external symbols, all in lwc::simd::${backend}")
endforeach()
if(failed)
  message(FATAL_ERROR "backend symbol check failed")
endif()
