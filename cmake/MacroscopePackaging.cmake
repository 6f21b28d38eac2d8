# What `cmake --install` puts beside the plugin and the tools, and the Debian
# package CPack makes of it (scripts/package.sh; docs/installing.md).

# Docs, examples, changelog and citation: share/doc/macroscope, lower case
# as Debian names its package's directory (GNUInstallDirs would say
# share/doc/Macroscope).
set(MACROSCOPE_INSTALL_DOCDIR "${CMAKE_INSTALL_DATADIR}/doc/macroscope")
install(DIRECTORY docs/ DESTINATION "${MACROSCOPE_INSTALL_DOCDIR}/docs" COMPONENT runtime)
install(DIRECTORY examples/ DESTINATION "${MACROSCOPE_INSTALL_DOCDIR}/examples"
  USE_SOURCE_PERMISSIONS COMPONENT runtime)
install(FILES README.md CHANGELOG.md CITATION.cff
  DESTINATION "${MACROSCOPE_INSTALL_DOCDIR}" COMPONENT runtime)

# The Debian package: only the runtime component (the plugin, its modules and
# configuration file, the tools, the docs); the client-server wrapping
# archives that paraview_add_plugin installs as "development" stay out.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME macroscope)
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_VENDOR "Macroscope developers")
set(CPACK_PACKAGE_CONTACT "Macroscope developers <macroscope@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "ParaView plugin for overviews of very large parallel-execution traces")
# The long description; the synopsis is the summary above.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
"Macroscope reads OTF2 (Score-P, EZTrace) and Paje (SimGrid) traces into
ParaView, builds their microscopic model, aggregates it with Ocelotl's and
Viva's information-theoretic criterion and up the resource hierarchy like
Triva, puts traces in logical time like Ravel, and draws timelines,
overviews, treemaps and a 3D topology-time scene. The package installs the
plugin for Debian's ParaView 5.11 (listed in Tools > Manage Plugins,
auto-load off), the tools macroscope-synth, macroscope-aggregate and
macroscope-paje-dump, and the documentation and examples.")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_PACKAGING_INSTALL_PREFIX "${CMAKE_INSTALL_PREFIX}")
set(CPACK_INSTALL_CMAKE_PROJECTS "${CMAKE_BINARY_DIR};Macroscope;runtime;/")
# Run-time dependencies by Debian package name: dpkg-shlibdeps maps every
# library the ELF files need to the package that ships it (paraview,
# libopen-trace-format2-10, libboost-graph1.74.0, libqt5*, ...), with
# ParaView's own shlibs pinning 5.11. The plugin's own modules sit beside it.
# The embedded Python package needs ParaView's Python modules, which no ELF
# file names: python3-paraview is added by hand.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS
  "${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/paraview-${ParaView_VERSION_MAJOR}.${ParaView_VERSION_MINOR}/plugins/Macroscope")
set(CPACK_DEBIAN_PACKAGE_DEPENDS "python3-paraview (>= 5.11), python3-paraview (<< 5.12)")
# ParaView's GUI lists the plugins named by the configuration files that
# <bindir>/paraview.conf names (one per line); postinst adds Macroscope's,
# postrm takes it away again (cmake/debian/).
set(MACROSCOPE_PLUGINS_XML
  "${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/paraview-${ParaView_VERSION_MAJOR}.${ParaView_VERSION_MINOR}/plugins/Macroscope.plugins.xml")
set(MACROSCOPE_PARAVIEW_CONF "${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/paraview.conf")
foreach (script IN ITEMS postinst postrm)
  configure_file("cmake/debian/${script}.in" "${CMAKE_BINARY_DIR}/debian/${script}" @ONLY
    FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
endforeach ()
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
  "${CMAKE_BINARY_DIR}/debian/postinst;${CMAKE_BINARY_DIR}/debian/postrm")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)
