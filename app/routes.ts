import { index, layout, route, type RouteConfig } from "@react-router/dev/routes";

export default [
  // Resource routes: no UI.
  route("api/views", "routes/resources/views.ts"),
  route("api/uploads/comment", "routes/resources/comment-upload.ts"),

  // The reader site.
  layout("routes/site/layout.tsx", [
    index("routes/site/home.tsx"),
    route("category/:slug", "routes/site/category.tsx"),
    route("article/:slug", "routes/site/article.tsx"),
    route("about", "routes/site/about.tsx"),
    route("contact", "routes/site/contact.tsx"),
    route("disclaimer", "routes/site/disclaimer.tsx"),
    route("cookie-policy", "routes/site/cookie-policy.tsx"),
    route("privacy-policy", "routes/site/privacy-policy.tsx"),
    route("terms-of-service", "routes/site/terms-of-service.tsx"),
    route("*", "routes/site/not-found.tsx"),
  ]),
] satisfies RouteConfig;
