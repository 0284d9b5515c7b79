{
  "targets": [
    {
      "target_name": "tree_io",
      "sources": ["tree_io.c"],
      "cflags": ["-O2", "-Wall", "-Wextra", "-Werror", "-fno-strict-aliasing"],
      "defines": ["NAPI_VERSION=8"]
    }
  ]
}
