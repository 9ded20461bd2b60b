"""URL map of the peer provider. DOT's endpoints live under /o/, so the issuer is {origin}/o."""

from django.contrib.auth import views as auth_views
from django.contrib.staticfiles.views import serve as serve_static
from django.urls import include, path, re_path
from oauth2_provider import urls as dot_urls

from . import views

# DOT's own route lists, minus what a standards peer should not expose: the application
# management pages (any signed-in person could register clients) and dynamic client
# registration (off). The two discovery routes are replaced by the completed documents of
# peer/views.py, keeping DOT's route names so DOT's reverse() calls still resolve.
_replaced = {"oidc-connect-discovery-info", "oauth-server-metadata"}
dot_patterns = [
    re_path(
        r"^\.well-known/openid-configuration$",
        views.PeerDiscoveryInfoView.as_view(),
        name="oidc-connect-discovery-info",
    ),
    path(
        ".well-known/oauth-authorization-server",
        views.PeerServerMetadataView.as_view(),
        name="oauth-server-metadata",
    ),
    *dot_urls.base_urlpatterns,
    *[p for p in dot_urls.oidc_urlpatterns if p.name not in _replaced],
]

urlpatterns = [
    path("o/", include((dot_patterns, "oauth2_provider"))),
    # RFC 8414 §3.1: for an issuer with a path, the metadata lives at the origin's well-known
    # location with the issuer's path appended.
    path(".well-known/oauth-authorization-server/o", views.PeerServerMetadataView.as_view()),
    # The page DOT sends an unauthenticated person to (settings.LOGIN_URL), with ?next=.
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(redirect_authenticated_user=False),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(next_page="/accounts/login/"), name="logout"),
    # DOT's page stylesheet; DEBUG is off, so staticfiles would not serve it unasked.
    re_path(r"^static/(?P<path>.*)$", serve_static, {"insecure": True}),
]
