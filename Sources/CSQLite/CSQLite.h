// SQLite (MBTiles files are SQLite databases), Debian package libsqlite3-dev.
#include <sqlite3.h>
