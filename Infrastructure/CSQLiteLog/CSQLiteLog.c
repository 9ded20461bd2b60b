#include "CSQLiteLog.h"

int rider_sqlite_keep_log_on_close(sqlite3 *db, int *confirmed) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, confirmed);
}
