#ifndef PHONEVERIFY_CMICROHTTPD_SHIM_H
#define PHONEVERIFY_CMICROHTTPD_SHIM_H

// Non-variadic helpers around libmicrohttpd so Swift can call it.
// MHD_start_daemon, MHD_get_connection_info and MHD_get_daemon_info are
// variadic, which Swift cannot call directly.

#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <errno.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <microhttpd.h>

/// Everything needed to start a daemon, with typed fields instead of varargs.
typedef struct pv_mhd_daemon_config {
    unsigned int flags;
    unsigned int connection_limit;
    unsigned int connection_timeout_seconds;
    size_t connection_memory_limit;
    MHD_AccessHandlerCallback access_handler;
    void *access_handler_cls;
    MHD_RequestCompletedCallback request_completed;
    void *request_completed_cls;
    /// Told when a connection starts and closes (optional).
    MHD_NotifyConnectionCallback notify_connection;
    void *notify_connection_cls;
} pv_mhd_daemon_config;

/// Leaves the URL and query arguments percent-encoded: MHD would otherwise decode the path
/// (turning %2F into a separator); the Swift side decodes the query itself.
static inline size_t pv_mhd_unescape_none(void *cls, struct MHD_Connection *connection, char *text) {
    (void) cls;
    (void) connection;
    return strlen(text);
}

/// Starts a daemon with no listen socket and one internal thread (connections come from
/// MHD_add_connection); NULL on failure (errno may say why).
static inline struct MHD_Daemon *pv_mhd_start_daemon(const pv_mhd_daemon_config *config) {
    struct MHD_OptionItem options[8];
    size_t n = 0;
    options[n++] = (struct MHD_OptionItem) { MHD_OPTION_CONNECTION_LIMIT, (intptr_t) config->connection_limit, NULL };
    options[n++] = (struct MHD_OptionItem) {
        MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t) config->connection_timeout_seconds, NULL };
    options[n++] = (struct MHD_OptionItem) {
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t) config->connection_memory_limit, NULL };
    options[n++] = (struct MHD_OptionItem) {
        MHD_OPTION_NOTIFY_COMPLETED, (intptr_t) config->request_completed, config->request_completed_cls };
    options[n++] = (struct MHD_OptionItem) { MHD_OPTION_UNESCAPE_CALLBACK, (intptr_t) &pv_mhd_unescape_none, NULL };
    if (config->notify_connection != NULL) {
        options[n++] = (struct MHD_OptionItem) {
            MHD_OPTION_NOTIFY_CONNECTION, (intptr_t) config->notify_connection, config->notify_connection_cls };
    }
    options[n] = (struct MHD_OptionItem) { MHD_OPTION_END, 0, NULL };
    // The port argument is ignored: there is no listen socket.
    return MHD_start_daemon(config->flags, 0, NULL, NULL,
                            config->access_handler, config->access_handler_cls,
                            MHD_OPTION_ARRAY, options,
                            MHD_OPTION_END);
}

/// Writes the client's IP address as text into `buffer` (NUL-terminated) and returns its
/// length, or 0 when unknown. IPv4-mapped IPv6 addresses (::ffff:a.b.c.d) come out as IPv4.
static inline size_t pv_mhd_client_ip(struct MHD_Connection *connection, char *buffer, size_t capacity) {
    if (capacity == 0) return 0;
    buffer[0] = '\0';
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return 0;
    const struct sockaddr *address = info->client_addr;
    const char *text = NULL;
    if (address->sa_family == AF_INET) {
        const struct sockaddr_in *v4 = (const struct sockaddr_in *) address;
        text = inet_ntop(AF_INET, &v4->sin_addr, buffer, (socklen_t) capacity);
    } else if (address->sa_family == AF_INET6) {
        const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *) address;
        if (IN6_IS_ADDR_V4MAPPED(&v6->sin6_addr)) {
            text = inet_ntop(AF_INET, &v6->sin6_addr.s6_addr[12], buffer, (socklen_t) capacity);
        } else {
            text = inet_ntop(AF_INET6, &v6->sin6_addr, buffer, (socklen_t) capacity);
        }
    }
    return text == NULL ? 0 : strlen(buffer);
}

/// The connection's socket descriptor, or -1.
static inline int pv_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : (int) info->connect_fd;
}

/// What the connection notice stored in `socket_context` at start, or NULL.
static inline void *pv_mhd_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

/// Fills `storage` with an IPv4 or IPv6 socket address for a numeric host and a port.
/// Returns the address family (AF_INET or AF_INET6), or 0 when `host` is not a numeric address.
static inline int pv_make_sockaddr(const char *host, uint16_t port, struct sockaddr_storage *storage) {
    memset(storage, 0, sizeof(*storage));
    struct sockaddr_in *v4 = (struct sockaddr_in *) storage;
    if (inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons(port);
        return AF_INET;
    }
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *) storage;
    if (inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons(port);
        return AF_INET6;
    }
    return 0;
}

/// Whether `storage` holds the IPv6 wildcard address "::" (bind it dual-stack).
static inline int pv_sockaddr_is_ipv6_any(const struct sockaddr_storage *storage) {
    if (storage->ss_family != AF_INET6) return 0;
    const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *) storage;
    return IN6_IS_ADDR_UNSPECIFIED(&v6->sin6_addr);
}

/// A listening TCP socket on `address` (IPv4 or IPv6; the IPv6 wildcard "::" also takes IPv4),
/// close-on-exec and non-blocking, with SO_REUSEADDR as libmicrohttpd would set it. Returns the
/// descriptor and the port actually bound (the real one when 0 was asked for), or -1 with errno.
static inline int pv_listen(const struct sockaddr_storage *address, int backlog, uint16_t *port) {
    const int family = address->ss_family;
    const int fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) return -1;
    int on = 1;
    (void) setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    if (family == AF_INET6) {
        int v6only = pv_sockaddr_is_ipv6_any(address) ? 0 : 1;
        (void) setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6only, sizeof v6only);
    }
    const socklen_t length = family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
    struct sockaddr_storage bound;
    socklen_t bound_length = sizeof bound;
    if (bind(fd, (const struct sockaddr *) address, length) != 0 || listen(fd, backlog) != 0
        || getsockname(fd, (struct sockaddr *) &bound, &bound_length) != 0) {
        const int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    *port = ntohs(family == AF_INET6 ? ((const struct sockaddr_in6 *) &bound)->sin6_port
                                     : ((const struct sockaddr_in *) &bound)->sin_port);
    return fd;
}

/// MHD_CONTENT_READER_END_OF_STREAM is a cast, which Swift does not import.
static inline ssize_t pv_mhd_content_reader_end_of_stream(void) { return MHD_CONTENT_READER_END_OF_STREAM; }
/// MHD_CONTENT_READER_END_WITH_ERROR is a cast, which Swift does not import.
static inline ssize_t pv_mhd_content_reader_end_with_error(void) { return MHD_CONTENT_READER_END_WITH_ERROR; }
/// MHD_SIZE_UNKNOWN: the length of a chunked response.
static inline uint64_t pv_mhd_size_unknown(void) { return MHD_SIZE_UNKNOWN; }

#endif
