# bench/web/config.ru: the Rack app Puma serves, the body of hello.arc's op.
app = ->(_env) { [200, { "content-type" => "text/html" }, ["hello"]] }
run app
