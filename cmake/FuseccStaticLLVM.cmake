#===- cmake/FuseccStaticLLVM.cmake - tools that carry LLVM/MLIR inside ----===//
#
# Debian's LLVM/MLIR 22 ship every library as a static archive
# (libMLIR*.a, libLLVM*.a) but were built with LLVM_LINK_LLVM_DYLIB: each
# imported MLIR library, and every library AddLLVM/AddMLIR builds here,
# names the shared libLLVM.so (CMake target `LLVM`) in its link interface.
#
# fusecc_static_llvm_setup() (after find_package(MLIR) and include(AddLLVM))
# puts the interface target FuseccLLVM in place of `LLVM` in the link
# interface of every imported MLIR library. FuseccLLVM resolves, per
# executable, to the shared libLLVM.so (the default) or to the static LLVM
# component archives where the executable has the target property
# FUSECC_STATIC_LLVM set, which fusecc_link_statically(<target>) sets
# (together with -static-libstdc++ -static-libgcc and --as-needed).
# fusecc_static_llvm_finish() (at the end of the top-level CMakeLists, after
# every target exists) does the same replacement in the targets built here.
#
# So one build holds both: tools that link statically to run on machines
# without LLVM (the `fusecc` compiler that the Python package ships) and dev
# tools that keep the shared libLLVM.so (faster links).
#
#===----------------------------------------------------------------------===//

include_guard(GLOBAL)

# The generator condition "the executable being linked wants static LLVM".
set(_FUSECC_STATIC "$<BOOL:$<TARGET_PROPERTY:FUSECC_STATIC_LLVM>>")

# Replaces the item `LLVM` (and `$<LINK_ONLY:LLVM>`) in `property` of
# `target` by FuseccLLVM.
function(_fusecc_replace_llvm target property)
  get_target_property(_libs ${target} ${property})
  if(NOT _libs)
    return()
  endif()
  set(_out)
  set(_changed OFF)
  foreach(_lib IN LISTS _libs)
    if(_lib STREQUAL "LLVM")
      set(_lib FuseccLLVM)
      set(_changed ON)
    elseif(_lib STREQUAL "$<LINK_ONLY:LLVM>")
      set(_lib "$<LINK_ONLY:FuseccLLVM>")
      set(_changed ON)
    endif()
    list(APPEND _out "${_lib}")
  endforeach()
  if(_changed)
    set_property(TARGET ${target} PROPERTY ${property} "${_out}")
  endif()
endfunction()

function(fusecc_static_llvm_setup)
  # LLVMSupport's link interface names zstd::libzstd_shared, which
  # LLVMConfig defines only where libzstd-dev is installed: stand in with
  # the library (static where there is one) or nothing.
  if(NOT TARGET zstd::libzstd_shared)
    find_library(FUSECC_ZSTD_LIBRARY NAMES libzstd.a zstd libzstd.so.1)
    add_library(zstd::libzstd_shared INTERFACE IMPORTED)
    if(FUSECC_ZSTD_LIBRARY)
      set_target_properties(zstd::libzstd_shared PROPERTIES
        INTERFACE_LINK_LIBRARIES "${FUSECC_ZSTD_LIBRARY}")
    endif()
  endif()

  # The static LLVM component archives this installation has, less those
  # whose link interface names a package not installed here (LLVMDebuginfod
  # needs CURL::libcurl, LLVMLineEditor LibEdit::LibEdit, LLVMExegesis
  # libpfm; fusecc uses none of them).
  set(_static_libs)
  foreach(_lib IN LISTS LLVM_AVAILABLE_LIBS)
    if(NOT TARGET ${_lib} OR NOT _lib MATCHES "^LLVM.")
      continue()
    endif()
    get_target_property(_type ${_lib} TYPE)
    if(NOT _type STREQUAL "STATIC_LIBRARY")
      continue()
    endif()
    get_target_property(_imported ${_lib} IMPORTED)
    if(_imported)
      get_target_property(_configs ${_lib} IMPORTED_CONFIGURATIONS)
      list(GET _configs 0 _config)
      get_target_property(_file ${_lib} IMPORTED_LOCATION_${_config})
      if(NOT _file OR NOT EXISTS "${_file}")
        continue()
      endif()
    endif()
    get_target_property(_deps ${_lib} INTERFACE_LINK_LIBRARIES)
    set(_missing OFF)
    foreach(_dep IN LISTS _deps)
      if(_dep MATCHES "::" AND NOT TARGET ${_dep})
        set(_missing ON)
      elseif(_dep MATCHES "^[A-Za-z0-9_]+$" AND NOT TARGET ${_dep})
        # A system library by name (-lpfm for LLVMExegesis).
        find_library(FUSECC_SYSTEM_LIB_${_dep} ${_dep})
        if(NOT FUSECC_SYSTEM_LIB_${_dep})
          set(_missing ON)
        endif()
      endif()
    endforeach()
    if(_missing)
      continue()
    endif()
    list(APPEND _static_libs ${_lib})
  endforeach()
  # Less, repeatedly, those that link anything but LLVM component archives
  # still in the set (LLVMExtensions links Polly, the tool drivers the
  # shared libLLVM.so, ...): those are LLVM's tools' parts, not components.
  set(_changed ON)
  while(_changed)
    set(_changed OFF)
    set(_kept)
    foreach(_lib IN LISTS _static_libs)
      get_target_property(_deps ${_lib} INTERFACE_LINK_LIBRARIES)
      set(_ok ON)
      foreach(_dep IN LISTS _deps)
        string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" _dep "${_dep}")
        if(TARGET ${_dep} AND NOT _dep MATCHES "::"
           AND NOT _dep IN_LIST _static_libs)
          set(_ok OFF)
        endif()
      endforeach()
      if(_ok)
        list(APPEND _kept ${_lib})
      else()
        set(_changed ON)
      endif()
    endforeach()
    set(_static_libs ${_kept})
  endwhile()
  list(LENGTH _static_libs _count)
  message(STATUS "fusecc: ${_count} static LLVM archives for statically "
                 "linked tools")

  add_library(FuseccLLVM INTERFACE)
  set(_items "$<$<NOT:${_FUSECC_STATIC}>:LLVM>")
  foreach(_lib IN LISTS _static_libs)
    list(APPEND _items "$<${_FUSECC_STATIC}:${_lib}>")
  endforeach()
  target_link_libraries(FuseccLLVM INTERFACE ${_items})

  get_property(_mlir_libs GLOBAL PROPERTY MLIR_ALL_LIBS)
  foreach(_lib IN LISTS _mlir_libs)
    if(TARGET ${_lib})
      _fusecc_replace_llvm(${_lib} INTERFACE_LINK_LIBRARIES)
    endif()
  endforeach()
endfunction()

# Every target defined in `dir` and its subdirectories.
function(_fusecc_targets_in dir out)
  get_property(_targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  get_property(_subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(_sub IN LISTS _subdirs)
    _fusecc_targets_in(${_sub} _sub_targets)
    list(APPEND _targets ${_sub_targets})
  endforeach()
  set(${out} ${_targets} PARENT_SCOPE)
endfunction()

function(fusecc_static_llvm_finish)
  _fusecc_targets_in(${PROJECT_SOURCE_DIR} _targets)
  foreach(_target IN LISTS _targets)
    get_target_property(_type ${_target} TYPE)
    if(_type MATCHES "^(STATIC_LIBRARY|SHARED_LIBRARY|MODULE_LIBRARY|OBJECT_LIBRARY|EXECUTABLE)$")
      _fusecc_replace_llvm(${_target} LINK_LIBRARIES)
    endif()
    if(NOT _type STREQUAL "UTILITY")
      _fusecc_replace_llvm(${_target} INTERFACE_LINK_LIBRARIES)
    endif()
  endforeach()
endfunction()

# Links the executable `target` against the static LLVM/MLIR archives and
# the static libstdc++/libgcc, so it needs only the C library at run time.
function(fusecc_link_statically target)
  set_target_properties(${target} PROPERTIES FUSECC_STATIC_LLVM ON)
  target_link_options(${target} PRIVATE -static-libstdc++ -static-libgcc
    -Wl,--as-needed)
endfunction()
