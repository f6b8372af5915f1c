#ifndef PHONE_VERIFY_CPOSTGRES_SHIM_H
#define PHONE_VERIFY_CPOSTGRES_SHIM_H

#include <libpq-fe.h>

/* The PG_DIAG_* field codes are character-literal macros ('C', 'M', ...),
   which Swift cannot import; these constants carry the same values. */
static const int CPostgresDiagSQLState = PG_DIAG_SQLSTATE;
static const int CPostgresDiagMessagePrimary = PG_DIAG_MESSAGE_PRIMARY;
static const int CPostgresDiagMessageDetail = PG_DIAG_MESSAGE_DETAIL;

#endif
