// PROJ's geodesic API (Karney 2013), Debian package libproj-dev.
#include <geodesic.h>
