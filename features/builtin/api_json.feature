@api @builtin
Feature: Matching JSON responses with markers
  "to match" is exact: every key and element, arrays in order. "to match in
  any order" lets arrays come in any order. "to contain" is a subset: more
  keys and more elements are fine, in any order. Markers stand for values
  that change from run to run.

  Scenario: Every marker
    When I send a GET request to "/api/users/1"
    Then I expect the response JSON to match:
      """json
      {
        "id": "#integer",
        "uuid": "#uuid",
        "name": "#string",
        "email": "#regex [a-z]+@example\\.com",
        "roles": "#[2] #string",
        "active": "#boolean",
        "address": "#object",
        "managerId": "#null",
        "birthday": "#date",
        "createdAt": "#datetime",
        "tags": "#array",
        "nickname": "#notpresent"
      }
      """
    And I expect the response JSON to match:
      """json
      {
        "id": "#number",
        "uuid": "#notnull",
        "name": "#present",
        "email": "#ignore",
        "roles": "#[]",
        "active": true,
        "address": { "street": "#string", "city": "London", "country": "#regex [A-Z]{2}" },
        "managerId": "##integer",
        "birthday": "##date",
        "createdAt": "#ignore",
        "tags": ["math", "poetry"],
        "deletedAt": "##datetime"
      }
      """

  Scenario: Dates and times in their ISO 8601 forms
    When I send a GET request to "/api/users"
    Then I expect each element of the response field "items" to contain:
      """json
      { "createdAt": "#datetime", "birthday": "##date" }
      """

  Scenario: Arrays in order, in any order, and subsets
    When I send a GET request to "/api/users/1"
    Then I expect the response field "roles" to match:
      """json
      ["admin", "editor"]
      """
    And I expect the response field "roles" not to match:
      """json
      ["editor", "admin"]
      """
    And I expect the response field "roles" to match in any order:
      """json
      ["editor", "admin"]
      """
    And I expect the response field "roles" not to match in any order:
      """json
      ["editor"]
      """
    And I expect the response field "roles" to contain:
      """json
      ["editor"]
      """
    And I expect the response field "roles" not to contain:
      """json
      ["viewer"]
      """

  Scenario: A subset of a list of objects
    When I send a GET request to "/api/users"
    Then I expect the response JSON to contain:
      """json
      {
        "items": [
          { "name": "Grace Hopper", "roles": ["editor"], "address": { "city": "New York" } },
          { "name": "Ada Lovelace", "managerId": null }
        ]
      }
      """
    And I expect the response JSON not to contain:
      """json
      { "items": [{ "name": "Grace Hopper", "active": false }] }
      """
    And I expect the response field "items[?(@.name == 'Alan Turing')]" to match:
      """json
      [{
        "id": 3, "uuid": "#uuid", "name": "Alan Turing", "email": "alan@example.com", "roles": ["viewer"],
        "active": false, "address": null, "managerId": null, "createdAt": "#datetime", "tags": ["crypto"]
      }]
      """

  Scenario: Every element of a list
    When I send a GET request to "/api/users"
    Then I expect each element of the response field "items" to contain:
      """json
      { "id": "#integer", "uuid": "#uuid", "name": "#string", "roles": "#[] #string", "active": "#boolean", "tags": "#array" }
      """
    And I expect each element of the response field "items" not to contain:
      """json
      { "password": "#present" }
      """
    And I expect each element of the response field "items[*].roles" to match:
      """json
      "#[] #regex [a-z]+"
      """

  Scenario: Remembered values in the expected JSON
    When I send a POST request to "/api/users" with the JSON:
      """json
      { "name": "Annie Easley", "email": "annie@example.com", "roles": ["programmer"] }
      """
    Then I remember the response field "id" as "id"
    And I remember the response field "uuid" as "uuid"
    When I send a GET request to "/api/users/$id"
    Then I expect the response JSON to contain:
      """json
      { "id": "$id", "uuid": "$uuid", "name": "Annie Easley", "email": "annie@example.com" }
      """
    And I expect the response JSON to contain:
      """json
      { "id": "${id}", "roles": ["programmer"] }
      """
    When I send a GET request to "/api/users?role=programmer"
    Then I expect the response JSON to contain:
      """json
      { "items": [{ "id": "$id" }] }
      """
    When I send a DELETE request to "/api/users/$id"
    Then I expect the response status to equal 204

  Scenario: The expected JSON from a fixture file
    Given the request body is the file "api-fixtures/new-user.json"
    When I send a POST request to "/api/users"
    Then I expect the response status to equal 201
    And I expect the response JSON to match the file "api-fixtures/expected-user.json"
    And I expect the response JSON to contain the file "api-fixtures/new-user.json"
    And I expect the response JSON not to match the file "api-fixtures/new-user.json"
    And I remember the response field "id" as "id"
    When I send a DELETE request to "/api/users/$id"
    Then I expect the response status to equal 204

  Scenario: A literal string that starts with #
    When I send a POST request to "/api/echo" with the JSON:
      """json
      { "tag": "#release" }
      """
    Then I expect the response field "json" to match:
      """json
      { "tag": "\\#release" }
      """
