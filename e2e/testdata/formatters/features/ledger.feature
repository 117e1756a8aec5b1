@ledger
Feature: Ledger
  A small ledger, to give the formatters every kind of result.

  Background:
    Given a balance of 1

  Scenario: deposits from a table
    When these amounts are deposited
      | amount | note  |
      | 1      | first |
      | 2      | next  |
    Then the balance is 4

  @slow
  Scenario: a wrong expectation
    When 2 is deposited
    Then the balance is 5
    And the ledger is closed

  Scenario: steps nobody wrote
    Given an account named "savings" with 42 coins
    When an audit is pending

  Scenario Outline: deposit <amount>
    When <amount> is deposited
    Then the balance is <total>

    Examples:
      | amount | total |
      | 1      | 2     |
      | 2      | 4     |

  Rule: notes
    Scenario: a note with a doc string
      When this note is written:
        """
        dear ledger
        """
      Then the balance is 1
