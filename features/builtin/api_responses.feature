@api @builtin
Feature: Checking API responses with the built-in steps
  Every check takes a comparison ({validation}) and its "not" form. An
  expected value is quoted ("text") or bare: a number, true, false, null or
  a remembered $name.

  Scenario: The status
    When I send a GET request to "/api/users/1"
    Then I expect the response status to equal 200
    And I expect the response status to equal "200"
    And I expect the response status not to equal 404
    And I expect the response status to be at least 200
    And I expect the response status to be less than 300
    And I expect the response to be successful
    When I send a GET request to "/api/users/999"
    Then I expect the response status to equal 404
    And I expect the response status to be greater than 399
    And I expect the response status to be at most 499
    And I expect the response status to match "^4\d\d$"
    And I expect the response status not to match "^2"
    And I expect the response not to be successful
    And I expect the response field "error" to equal "no user 999"

  Scenario Outline: Any status the server answers with
    When I send a GET request to "/api/status/<code>"
    Then I expect the response status to equal <code>
    And I expect the response field "text" to equal "<text>"
    And I expect the response <successful> successful

    Examples:
      | code | text                  | successful |
      | 201  | Created               | to be      |
      | 418  | I'm a teapot          | not to be  |
      | 503  | Service Unavailable   | not to be  |

  Scenario: Headers
    When I send a GET request to "/api/users?role=editor"
    Then I expect the response header "Content-Type" to equal "application/json"
    And I expect the response header "content-type" to start with "application/"
    And I expect the response header "Content-Type" not to contain "html"
    And I expect the response header "X-Total-Count" to be at least 1
    And I expect the response header "X-Total-Count" to match "^\d+$"
    And I expect the response header "Content-Type" to be present
    And I expect the response header "X-Powered-By" not to be present
    And I expect the response header "X-Powered-By" not to equal "PHP"
    When I send a GET request to "/api/echo"
    Then I expect the response header "X-Request-Id" to have length 36
    And I remember the response header "X-Request-Id" as "requestId"
    When I send a GET request to "/api/echo"
    Then I expect the response header "X-Request-Id" not to equal "$requestId"

  Scenario: The body as text
    When I send a GET request to "/api/health"
    Then I expect the response body to contain "ok"
    And I expect the response body not to contain "error"
    And I expect the response body to start with "{"
    And I expect the response body to match "\}\n$"
    And I expect the response body not to end with "}"
    And I expect the response body to match "\"status\":\s*\"ok\""
    And I expect the response body to have length 16
    And I expect the response body to equal:
      """
      {"status":"ok"}

      """
    And I expect the response body not to equal:
      """
      {"status":"down"}
      """
    When I send a GET request to "/index.html"
    Then I expect the response header "Content-Type" to contain "text/html"
    And I expect the response body to contain "<html"

  Scenario: Fields by path
    When I send a GET request to "/api/users/1"
    Then I expect the response field "name" to equal "Ada Lovelace"
    And I expect the response field "$.name" to equal 'Ada Lovelace'
    And I expect the response field "name" not to equal "Grace Hopper"
    And I expect the response field "address.city" to equal "London"
    And I expect the response field "$['address']['country']" to equal "UK"
    And I expect the response field "id" to equal 1
    And I expect the response field "id" to equal "1"
    And I expect the response field "active" to equal true
    And I expect the response field "managerId" to equal null
    And I expect the response field "roles" to contain "admin"
    And I expect the response field "roles" not to contain "viewer"
    And I expect the response field "roles" to have length 2
    And I expect the response field "roles" not to have length 3
    And I expect the response field "roles" to equal '["admin","editor"]'
    And I expect the response field "roles[-1]" to equal "editor"
    And I expect the response field "roles.length" to equal 2
    And I expect the response field "email" to end with "@example.com"
    And I expect the response field "email" to match "^[a-z]+@"
    And I expect the response field "name" to start with "Ada"
    And I expect the response field "address" to equal "{\"country\":\"UK\",\"city\":\"London\",\"street\":\"12 St James's Square\"}"

  Scenario: Lists, wildcards and filters
    When I send a GET request to "/api/users"
    Then I expect the response field "total" to be at least 3
    And I expect the response field "items" to have length $response.total
    And I expect the response field "items[*].name" to contain "Grace Hopper"
    And I expect the response field "items[*].name" not to contain "Nobody"
    And I expect the response field "items[?(@.active == false)].name" to contain "Alan Turing"
    And I expect the response field "items[?(@.id <= 2)].name" to equal '["Ada Lovelace","Grace Hopper"]'
    And I expect the response field "items[?(@.managerId == 1)].name" to equal '["Grace Hopper"]'
    And I expect the response field "$..city" to contain "New York"
    And I expect the response field "items[0].address.city" to equal "London"
    And I expect the response field "items.0.roles.0" to equal "admin"

  Scenario: Field types
    When I send a GET request to "/api/users/1"
    Then I expect the response field "name" to be a string
    And I expect the response field "id" not to be a string
    And I expect the response field "id" to be a number
    And I expect the response field "id" to be an integer
    And I expect the response field "uuid" not to be an integer
    And I expect the response field "name" not to be a number
    And I expect the response field "active" to be a boolean
    And I expect the response field "id" not to be a boolean
    And I expect the response field "roles" to be an array
    And I expect the response field "address" to be an object
    And I expect the response field "roles" not to be an object
    And I expect the response field "address" not to be an array
    And I expect the response field "uuid" to be a uuid
    And I expect the response field "name" not to be a uuid
    And I expect the response field "birthday" to be a date
    And I expect the response field "createdAt" not to be a date
    And I expect the response field "createdAt" to be a datetime
    And I expect the response field "birthday" not to be a datetime
    And I expect the response field "managerId" to be null
    And I expect the response field "address" not to be null
    And I expect the response field "managerId" to be present
    And I expect the response field "password" not to be present
    And I expect the response field "tags" not to be empty
    When I send a GET request to "/api/users/2"
    Then I expect the response field "tags" to be empty
    And I expect the response field "managerId" to be an integer

  Scenario: Remembering parts of a response
    When I send a POST request to "/api/users" with the JSON:
      """json
      { "name": "Dorothy Vaughan", "email": "dorothy@example.com" }
      """
    Then I expect the response status to equal 201
    And I remember the response field "id" as "userId"
    And I remember the response header "Location" as "userURL"
    And I remember the response status as "createdStatus"
    And I remember the response body as "created"
    When I send a GET request to "$userURL"
    Then I expect the response field "id" to equal $userId
    And I expect the response field "uuid" to equal $created.uuid
    And I expect the response field "name" to equal "$created.name"
    And I expect the response header "Content-Type" to contain "json"
    # $response is always the last response's JSON (or text).
    And I expect the response field "email" to equal $response.email
    When I send a PATCH request to "/api/users/$userId" with the JSON:
      """json
      { "active": false }
      """
    Then I expect the response field "active" to equal false
    And I expect the response field "name" to equal "Dorothy Vaughan"
    When I send a PUT request to "/api/users/$userId" with the JSON:
      | name  | Dorothy J. Vaughan  |
      | email | dorothy@example.com |
    Then I expect the response field "name" to equal "Dorothy J. Vaughan"
    And I expect the response field "active" to equal true
    When I send a DELETE request to "$userURL"
    Then I expect the response status to equal 204
    And I expect the response body to equal ""
    When I send a GET request to "/api/users/$userId"
    Then I expect the response status to equal 404
    And I expect the response status not to equal $createdStatus

  Scenario: Validation errors, read field by field
    When I send a POST request to "/api/users" with the JSON:
      """json
      { "email": "not-an-email" }
      """
    Then I expect the response status to equal 400
    And I expect the response field "errors" to have length 2
    And I expect the response field "errors[*].field" to contain "name"
    And I expect the response field "errors[?(@.field == 'email')].message" to equal '["is not an email address"]'

  Scenario: The report gets the exchange on request
    When I send a GET request to "/api/health"
    Then I attach the response to the report
