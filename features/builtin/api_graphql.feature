@api @builtin
Feature: Built-in steps: GraphQL
  The demo app serves /graphql (demoapp/graphql.go). A query's response is
  JSON: every response step applies to it; GraphQL's own errors come with a
  200 status and have their steps.

  Scenario: A query with variables
    Given the GraphQL variables are:
      """json
      { "id": 1 }
      """
    When I send the GraphQL query to "/graphql":
      """graphql
      query User($id: Int!) {
        user(id: $id) { name roles address { city } }
      }
      """
    Then I expect the response status to equal 200
    And I expect the GraphQL response to have no errors
    And I expect the response JSON to match:
      """json
      { "data": { "user": { "name": "Ada Lovelace", "roles": ["admin", "editor"], "address": { "city": "London" } } } }
      """

  Scenario: A mutation with variables from a table
    Given the GraphQL variables are:
      | sku      | F-3 |
      | quantity | 2   |
    When I send the GraphQL query to "/graphql":
      """graphql
      mutation Add($sku: String!, $quantity: Int!) {
        addToBasket(sku: $sku, quantity: $quantity) { name quantity price }
      }
      """
    Then I expect the GraphQL response to have no errors
    And I expect the response field "data.addToBasket.quantity" to equal 2
    And I expect the response field "data.addToBasket.price" to be greater than 3

  Scenario: Errors of a query
    When I send the GraphQL query to "/graphql":
      """graphql
      { user(id: 42) { name } }
      """
    Then I expect the response status to equal 200
    And I expect the GraphQL error messages to contain "no user 42"
    And I expect the GraphQL error messages to have length 1
    And I expect the GraphQL error messages not to contain "no user 1"
    And I expect the response field "data.user" to be null
