@api @builtin
Feature: Built-in steps: named responses, Karate's "contains any" and "#?" markers, soft checks
  Several responses can be kept by name and checked in any order; "to
  contain any" needs one expected element or field; "#? expression" checks
  a value with JavaScript (_ is the value, $ the whole document).

  Scenario: Checking two named responses after both requests
    When I send a GET request to "/api/users/1"
    And I remember the response as "ada"
    And I send a GET request to "/api/users/2"
    And I remember the response as "grace"
    And I send a GET request to "/api/health"
    Then I expect the "ada" response status to equal 200
    And I expect the "ada" response field "name" to equal "Ada Lovelace"
    And I expect the "grace" response JSON to contain:
      """json
      { "name": "Grace Hopper", "managerId": "$ada.body.id" }
      """
    And I expect "$grace.status" to equal 200
    And I expect "$ada.body.address.city" to equal "London"
    And I expect the response field "status" to equal "ok"
    And I attach the "grace" response to the report

  Scenario: Contains any
    When I send a GET request to "/api/users/1"
    Then I expect the response field "tags" to contain any:
      """json
      ["music", "poetry"]
      """
    And I expect the response field "roles" not to contain any:
      """json
      ["viewer", "guest"]
      """
    And I expect the response JSON to contain any:
      """json
      { "name": "Grace Hopper", "email": "#regex .+@example\\.com" }
      """

  Scenario: Expressions in markers
    Given I remember "1800" as "born"
    When I send a GET request to "/api/users"
    Then I expect the response JSON to match:
      """json
      {
        "total": "#? _ == $.items.length",
        "items": "#[3] #object"
      }
      """
    And I expect each element of the response field "items" to contain:
      """json
      { "id": "#number? _ > 0", "name": "#string? _.length >= 10", "roles": "#? _.length >= 1" }
      """
    When I send a GET request to "/api/users/1"
    Then I expect the response JSON to contain:
      """json
      { "birthday": "#? Number(_.slice(0, 4)) > born", "tags": "#? _.includes('math')", "managerId": "##number? _ > 0" }
      """

  Scenario: Soft checks all run
    When I send a GET request to "/api/users/1"
    Then I softly expect the response status to equal 200
    And I softly expect the response field "name" to start with "Ada"
    And I expect the response field "active" to equal true
