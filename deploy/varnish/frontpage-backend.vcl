# Where Frontpage answers, and who may purge (included by default.vcl; edit this file, not that one).
# With several Frontpage machines, put them behind a load balancer, or declare one backend each and
# a vmod_directors round robin in a file of your own.

backend origin {
    .host = "127.0.0.1";
    .port = "3000";
    # Frontpage's health check: while it fails, Varnish serves stale pages (up to a day) instead of errors.
    .probe = {
        .url = "/healthz";
        .interval = 2s;
        .timeout = 2s;
        .window = 3;
        .threshold = 2;
    }
}

# The machines whose PURGE requests are obeyed: those running Frontpage (CDN=varnish purges from the
# process that holds the purge lock, on any of them). Everything else gets 403.
# Careful: the ACL sees the address that connected to Varnish. If a TLS proxy on this machine
# (hitch, nginx) forwards readers to Varnish, every reader comes from 127.0.0.1: then take 127.0.0.1
# out of this list and purge over another address (VARNISH_URL=http://10.0.0.5:6081), have the proxy
# refuse the PURGE method, or speak the PROXY protocol (-a …,PROXY) so client.ip is the reader's.
acl purgers {
    "127.0.0.1";
    "::1";
}
