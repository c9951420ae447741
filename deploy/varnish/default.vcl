# Varnish in front of Frontpage (issue 32, decision 0045). Debian: apt install varnish varnish-modules.
#
# - Caches only anonymous GETs and HEADs of what the origin marks `public` (Cache-Control), for the
#   origin's s-maxage; never a request with a session cookie or an Authorization header, never an
#   answer with Set-Cookie, never the back office, the APIs, accounts or a subscriber's own links.
# - Tags each stored answer with the origin's Surrogate-Key (vmod xkey), so Frontpage's purges
#   (CDN=varnish, VARNISH_URL=http://this-varnish:6081) drop exactly the pages a change touched.
# - Obeys PURGE only from the `purgers` ACL (frontpage-backend.vcl).
# - Passes a live story's event stream (/api/live/…) through as it comes, never buffered or stored.
# - Serves a stored page up to a day past its lifetime while the origin's health check fails
#   (stale-if-error), ten seconds otherwise while it is fetched again (stale-while-revalidate).
#
# Frontpage's own cache result moves to X-Origin-Cache; X-Cache says Varnish's: HIT, MISS, PASS or
# STALE (served past its lifetime).

vcl 4.1;

import std;
import xkey;

# backend origin, acl purgers: found through vcl_path (-p vcl_path=…), so a test or an operator
# supplies their own without touching this file.
include "frontpage-backend.vcl";

sub vcl_recv {
    if (req.method == "PURGE") {
        if (client.ip !~ purgers) {
            return (synth(403, "Forbidden"));
        }
        if (!req.http.xkey-purge) {
            return (synth(400, "PURGE needs an xkey-purge header"));
        }
        set req.http.n-gone = xkey.purge(req.http.xkey-purge);
        return (synth(200, "Purged " + req.http.n-gone + " objects"));
    }
    # A live story's event stream: straight through (vcl_backend_response streams it).
    if (req.url ~ "(?i)^/api/live/") {
        return (pass);
    }
    if (req.method != "GET" && req.method != "HEAD") {
        return (pass);
    }
    # Personal by path, whatever the origin says (app/lib/path-classes.ts: personal "always"), and search.
    # Case-insensitive, as the origin's routes are.
    if (req.url ~ "(?i)^/(admin|api|auth|account|preview|join|search)(/|\?|\.data|$)" ||
        req.url ~ "(?i)^/subscribe/return" ||
        req.url ~ "(?i)^/newsletter/(open|click|view|confirm|preferences|unsubscribe)/") {
        return (pass);
    }
    # A signed-in reader (Better Auth's session cookie) or a program with credentials: their own pages.
    if (req.http.Cookie ~ "(^|;\s*)(__Secure-)?better-auth\.session_token=" || req.http.Authorization) {
        return (pass);
    }
    # A member (their session) or a reader on the meter (issue 40): a gated story's page depends on
    # who asks; the origin's page cache picks their copy at its door, from memory (decision 0054).
    if (req.http.Cookie ~ "(^|;\s*)(__Secure-)?frontpage-member\.session_token=" || req.http.Cookie ~ "(^|;\s*)frontpage-meter=") {
        return (pass);
    }
    # Any other cookie changes nothing an anonymous page shows (the origin ignores it too): one copy for all.
    unset req.http.Cookie;
    if (std.healthy(req.backend_hint)) {
        set req.grace = 10s;
    }
    return (hash);
}

sub vcl_hit {
    set req.http.x-varnish-result = "HIT";
    if (obj.ttl <= 0s) {
        set req.http.x-varnish-result = "STALE";
    }
}

sub vcl_miss {
    set req.http.x-varnish-result = "MISS";
}

sub vcl_pass {
    set req.http.x-varnish-result = "PASS";
}

sub vcl_backend_response {
    if (bereq.url ~ "(?i)^/api/live/") {
        set beresp.do_stream = true;
        set beresp.uncacheable = true;
        return (deliver);
    }
    if (bereq.uncacheable) {
        return (deliver);
    }
    # Only what the origin marks public, and nothing that sets a cookie: else not stored (the next
    # request asks the origin again: hit-for-miss, so a page that becomes public is stored then).
    if (beresp.http.Set-Cookie ||
        beresp.http.Cache-Control !~ "(^|,)\s*public\b" ||
        beresp.http.Cache-Control ~ "(no-store|no-cache|private)" ||
        beresp.http.Vary == "*") {
        set beresp.uncacheable = true;
        set beresp.ttl = 60s;
        return (deliver);
    }
    # The lifetime is the origin's s-maxage (Varnish reads it from Cache-Control); kept a day past it
    # for when the origin is down (vcl_recv allows 10 s of it while the origin is healthy).
    set beresp.grace = 24h;
    # xkey tags the object with the origin's Surrogate-Key (space-separated cache tags).
    if (beresp.http.Surrogate-Key) {
        set beresp.http.xkey = beresp.http.Surrogate-Key;
    }
    return (deliver);
}

sub vcl_deliver {
    if (resp.http.X-Cache) {
        set resp.http.X-Origin-Cache = resp.http.X-Cache;
    }
    set resp.http.X-Cache = req.http.x-varnish-result;
    unset resp.http.xkey;
    unset resp.http.Surrogate-Control;
}

sub vcl_synth {
    # Synthetic answers (PURGE results, errors) are nobody's page.
    set resp.http.Cache-Control = "no-store";
}
