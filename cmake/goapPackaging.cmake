# Libraries, the shared bundle and the install rules, for every module at once.
#
# goap_package() runs once the top-level CMakeLists.txt has been read (cmake_language(DEFER)),
# so it sees every library target named `goap` or `goap_<module>` defined there, including
# modules added later, without anyone listing them here. For each such library it:
#   * sets hidden visibility (only GOAP_API symbols are exported), VERSION and SOVERSION;
#   * defines GOAP_SHARED_BUILD while building it shared (dllexport on Windows) and
#     GOAP_SHARED for its users (dllimport);
#   * installs and exports it (goap::<name> in the CMake package).
# It writes goap.pc with every library in link order (a library before those it links) and
# -lm / -pthread as the modules need them: in Libs for static libraries (so the plain
# `pkg-config --libs goap` links), in Libs.private for shared ones.
#
# It also builds goap_shared (GOAP_BUILD_BUNDLE, default ON): one shared library holding every
# module (every src/<module>/*.c), for the bindings (Python ctypes, C# P/Invoke, Lua) and for
# engines that want a single native plugin (libgoap_shared.so, goap_shared.dll).

option(GOAP_BUILD_BUNDLE "Build goap_shared, one shared library with every module" ON)

function(goap_package)
  get_property(targets DIRECTORY ${PROJECT_SOURCE_DIR} PROPERTY BUILDSYSTEM_TARGETS)
  set(libs "")
  foreach(t ${targets})
    get_target_property(type ${t} TYPE)
    if(t MATCHES "^goap(_[a-z0-9]+)?$" AND NOT t STREQUAL "goap_shared" AND NOT t STREQUAL "goap_cli"
       AND type MATCHES "^(STATIC|SHARED)_LIBRARY$")
      list(APPEND libs ${t})
    endif()
  endforeach()

  # Order: a library after every library it links (dependencies first).
  set(ordered "")
  set(remaining ${libs})
  set(needs_threads OFF)
  while(remaining)
    set(progress OFF)
    foreach(t ${remaining})
      get_target_property(deps ${t} LINK_LIBRARIES)
      set(ready ON)
      foreach(d ${deps})
        if(d STREQUAL "Threads::Threads")
          set(needs_threads ON)
        endif()
        if(NOT d STREQUAL t AND d IN_LIST remaining)
          set(ready OFF)
        endif()
      endforeach()
      if(ready)
        list(APPEND ordered ${t})
        list(REMOVE_ITEM remaining ${t})
        set(progress ON)
      endif()
    endforeach()
    if(NOT progress)
      message(FATAL_ERROR "goap: the libraries ${remaining} link each other in a cycle")
    endif()
  endwhile()

  foreach(t ${ordered})
    get_target_property(type ${t} TYPE)
    set_target_properties(${t} PROPERTIES C_VISIBILITY_PRESET hidden CXX_VISIBILITY_PRESET hidden
      VISIBILITY_INLINES_HIDDEN ON
      VERSION ${PROJECT_VERSION} SOVERSION ${GOAP_SOVERSION})
    if(type STREQUAL "SHARED_LIBRARY")
      target_compile_definitions(${t} PRIVATE GOAP_SHARED_BUILD INTERFACE GOAP_SHARED)
      # a module finds the modules it links beside itself (goap_file -> goap_htn, ...), so
      # users need only the path of the libraries they link directly
      if(APPLE)
        set_target_properties(${t} PROPERTIES INSTALL_RPATH "@loader_path")
      elseif(UNIX)
        set_target_properties(${t} PROPERTIES INSTALL_RPATH "$ORIGIN")
      endif()
    endif()
  endforeach()
  set(GOAP_LIBRARIES ${ordered} PARENT_SCOPE)

  # The link line for pkg-config: dependents first.
  set(pc_libs "")
  foreach(t ${ordered})
    get_target_property(name ${t} OUTPUT_NAME)
    if(NOT name)
      set(name ${t})
    endif()
    set(pc_libs "-l${name} ${pc_libs}")
  endforeach()
  string(STRIP "${pc_libs}" GOAP_PC_LIBS)
  set(pc_system "-lm")
  if(needs_threads)
    string(APPEND pc_system " -pthread")
  endif()
  # Static libraries do not carry their own dependencies: the documented line
  # `cc x.c $(pkg-config --cflags --libs goap)` (no --static) must then get -lm / -pthread in
  # Libs. Shared libraries link them themselves, so they stay in Libs.private.
  set(any_static OFF)
  foreach(t ${ordered})
    get_target_property(type ${t} TYPE)
    if(type STREQUAL "STATIC_LIBRARY")
      set(any_static ON)
    endif()
  endforeach()
  if(any_static)
    string(APPEND GOAP_PC_LIBS " ${pc_system}")
    set(GOAP_PC_LIBS_PRIVATE "")
  else()
    set(GOAP_PC_LIBS_PRIVATE "${pc_system}")
  endif()
  configure_file(${PROJECT_SOURCE_DIR}/cmake/goap.pc.in ${PROJECT_BINARY_DIR}/goap.pc @ONLY)

  install(TARGETS ${ordered} EXPORT goapTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

  if(GOAP_BUILD_BUNDLE)
    file(GLOB bundle_sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/*/*.c)
    add_library(goap_shared SHARED ${bundle_sources})
    target_include_directories(goap_shared
      PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
             $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>
      PRIVATE ${PROJECT_SOURCE_DIR}/src)
    target_compile_definitions(goap_shared PRIVATE GOAP_SHARED_BUILD INTERFACE GOAP_SHARED)
    target_link_libraries(goap_shared PRIVATE m)
    if(needs_threads)
      find_package(Threads REQUIRED)
      target_link_libraries(goap_shared PRIVATE Threads::Threads)
    endif()
    set_target_properties(goap_shared PROPERTIES C_VISIBILITY_PRESET hidden
      VERSION ${PROJECT_VERSION} SOVERSION ${GOAP_SOVERSION})
    goap_warnings(goap_shared)
    install(TARGETS goap_shared EXPORT goapTargets
      ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
      LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
      RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  endif()

  # The exported symbols are exactly the GOAP_API functions of include/goap/*.h.
  if(GOAP_BUILD_TESTS AND NOT WIN32 AND NOT APPLE)
    find_package(Python3 COMPONENTS Interpreter)
    if(Python3_FOUND)
      set(check ${PROJECT_SOURCE_DIR}/tests/symbols/check.py ${PROJECT_SOURCE_DIR}/include/goap)
      if(GOAP_BUILD_BUNDLE)
        add_test(NAME symbols_bundle COMMAND Python3::Interpreter ${check}
                 $<TARGET_FILE:goap_shared>)
      endif()
      if(BUILD_SHARED_LIBS)
        set(files "")
        foreach(t ${ordered})
          list(APPEND files $<TARGET_FILE:${t}>)
        endforeach()
        add_test(NAME symbols_libraries COMMAND Python3::Interpreter ${check} ${files})
      endif()
    endif()
  endif()

  install(EXPORT goapTargets NAMESPACE goap:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/goap)
  install(FILES ${PROJECT_BINARY_DIR}/goap.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
  message(STATUS "goap: libraries ${ordered}")
endfunction()

cmake_language(DEFER DIRECTORY ${PROJECT_SOURCE_DIR} CALL goap_package)
