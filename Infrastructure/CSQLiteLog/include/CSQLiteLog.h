#ifndef RIDER_CSQLITELOG_H
#define RIDER_CSQLITELOG_H

#include <sqlite3.h>

/// Tells SQLite not to fold the write-ahead log back into the file when `db`, the last
/// connection on it, closes (SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE): `sqlite3_db_config` is variadic,
/// which Swift cannot call, so this one line makes the call. Returns SQLITE_OK and sets
/// `*confirmed` to 1 when SQLite took the setting.
int rider_sqlite_keep_log_on_close(sqlite3 *db, int *confirmed);

#endif
